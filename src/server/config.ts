import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/** Runtime settings (docs/product.md#runtime), parsed once at boot so a bad value fails fast. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('./data'),
  /** Ticket attachments (decision 0190); default DATA_DIR/attachments. Several instances must share it. */
  ATTACHMENTS_DIR: z.string().optional(),
  DATABASE_URL: z.string().optional(),
  /** PostgreSQL without the transaction pooler in DATABASE_URL, for LISTEN and migrations (decision 0334). */
  DATABASE_DIRECT_URL: z.string().optional(),
  /** PostgreSQL: how long a statement waits for a row lock before it gives up (409, retry); decision 0301. */
  DATABASE_LOCK_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /** PostgreSQL: the longest a request's statement may run (503, retry); migrations are exempt. */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(30_000),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 bytes').optional(),
  PUBLIC_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ALLOW_SANDBOX: z.enum(['0', '1']).default('0'),
  TRUST_PROXY: z.enum(['0', '1']).default('0'),
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  NOWPAYMENTS_API_KEY: z.string().optional(),
  NOWPAYMENTS_IPN_SECRET: z.string().optional(),
  NOWPAYMENTS_API_BASE: z.url().optional(),
  /** Dashboard login for the calls NOWPayments guards with a JWT (listing payments: re-deposits). */
  NOWPAYMENTS_EMAIL: z.string().optional(),
  NOWPAYMENTS_PASSWORD: z.string().optional(),
  DISCORD_CLIENT_ID: z.string().optional(),
  DISCORD_CLIENT_SECRET: z.string().optional(),
  DISCORD_API_BASE: z.url().optional(),
  /** The Discord application's bot (notifications by direct message) and the product's server it sits in. */
  DISCORD_BOT_TOKEN: z.string().optional(),
  DISCORD_GUILD_ID: z
    .string()
    .regex(/^\d{1,20}$/, 'DISCORD_GUILD_ID must be a Discord id (digits)')
    .optional(),
  TELEGRAM_BOT_TOKEN: z.string().optional(),
  TELEGRAM_BOT_NAME: z.string().optional(),
  /** The Bot API base (default https://api.telegram.org); `/bot<token>/<method>` is appended. */
  TELEGRAM_API_BASE: z.url().optional(),
  TURNSTILE_SITE_KEY: z.string().optional(),
  TURNSTILE_SECRET: z.string().optional(),
  TURNSTILE_API_BASE: z.url().optional(),
  SWAP_API_KEY: z.string().optional(),
  SWAP_API_BASE: z.url().optional(),
  /** How long a fixed-rate quote of the swap sandbox stays valid (the real provider decides its own). */
  SWAP_SANDBOX_RATE_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  /** Reward credits per exchange, as a percentage of its USD value (0.5 = 0.5 %). */
  REWARD_PERCENT: z.coerce.number().min(0).max(100).default(0.5),
  DEPOSIT_MIN_USD: z.coerce.number().positive().default(5),
  DEPOSIT_MAX_USD: z.coerce.number().positive().default(10_000),
  /** Set to 0 in tests that need many logins from one address; never in production. */
  RATE_LIMITS: z.enum(['0', '1']).default('1'),
  /** 1 lets webhooks reach private, loopback and link-local addresses and plain http (tests, private deployments). */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z.enum(['0', '1']).default('0'),
  /** 1: support and admin accounts must set up two-factor sign-in before they can use the staff console. */
  /** Staff (support, admin) set up two-factor before the console opens to them: on unless turned off (docs/security.md#staff-powers). */
  REQUIRE_STAFF_2FA: z.enum(['0', '1']).default('1'),
  /** Real mail delivery: smtp://user:pass@host:587 or smtps://…; unset: the mail sandbox. */
  SMTP_URL: z
    .string()
    .optional()
    .refine((v) => v === undefined || /^smtps?:\/\/[^\s]+$/.test(v), 'SMTP_URL must be smtp://… or smtps://…'),
  /** Sender of every message; default `Olympus <no-reply@HOST of PUBLIC_URL>`. */
  MAIL_FROM: z.string().min(3).max(320).optional(),
  /** First retry delay of a failed send (doubling each time) and the attempts before a message is marked failed. */
  MAIL_RETRY_DELAY_SECONDS: z.coerce.number().min(0).max(3600).default(30),
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(6),
});

export type Env = z.infer<typeof envSchema>;

export interface TurnstileConfig {
  sandbox: boolean;
  siteKey: string;
  secret: string;
  apiBase: string | null;
}

export interface NowPaymentsConfig {
  sandbox: boolean;
  apiKey: string;
  ipnSecret: string | null;
  /** null: the sandbox mounted on this server, reached at the address it listens on. */
  apiBase: string | null;
  /**
   * The dashboard login `POST /auth` takes for a JWT, which listing payments needs (how reconciliation
   * finds re-deposits whose IPN was lost); null: not configured, re-deposits come by IPN only.
   */
  login: { email: string; password: string } | null;
}

export interface DiscordConfig {
  sandbox: boolean;
  clientId: string;
  clientSecret: string;
  /** The API base (token, /users/@me); null: the sandbox mounted on this server. */
  apiBase: string | null;
  /**
   * The application's bot, which sends notifications as direct messages, and the product's server
   * (guild) connecting adds people to so the bot may write to them; null: no Discord notifications.
   */
  bot: { token: string; guildId: string } | null;
}

export interface TelegramConfig {
  sandbox: boolean;
  botToken: string;
  /** The bot's username, for the Login Widget's data-telegram-login. */
  botName: string;
  /** The Bot API base (sendMessage); null: the sandbox mounted on this server. */
  apiBase: string | null;
}

export interface SwapConfig {
  sandbox: boolean;
  apiKey: string;
  /** The ChangeNOW-style API base (ending in /v1); null: the sandbox mounted on this server. */
  apiBase: string | null;
  /** Sandbox only: seconds a fixed-rate quote (rateId) stays valid. */
  sandboxRateTtlSeconds: number;
}

export interface MailConfig {
  /** true: no SMTP_URL, messages are kept in the database and shown at /sandbox/mail. */
  sandbox: boolean;
  smtpUrl: string | null;
  from: string;
  retryDelaySeconds: number;
  maxAttempts: number;
}

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  dataDir: string;
  /** Where ticket attachments are kept (outside the database directory; decision 0190). */
  attachmentsDir: string;
  databaseUrl: string | undefined;
  /** Set when DATABASE_URL goes through PgBouncer: the same database, reached directly (decision 0334). */
  databaseDirectUrl: string | undefined;
  /** PostgreSQL session limits (decision 0301): a request never holds a connection for long waiting on a lock. */
  databaseTimeouts: { lockMs: number; statementMs: number };
  jwtSecret: Uint8Array;
  publicUrl: string;
  logLevel: Env['LOG_LEVEL'];
  trustProxy: boolean;
  /** After SIGTERM, how long /readyz says "stopping" while requests are still served, so a proxy moves away first (decision 0273). */
  shutdownDrainMs: number;
  rateLimits: boolean;
  turnstile: TurnstileConfig;
  depositLimitsUsd: { min: number; max: number };
  nowpayments: NowPaymentsConfig;
  discord: DiscordConfig;
  telegram: TelegramConfig;
  swap: SwapConfig;
  /** Reward credits per finished exchange, as a percentage of its USD value. */
  rewardPercent: number;
  /** Providers running as local sandboxes (docs/architecture.md#principles). */
  sandboxes: string[];
  webhooks: { allowPrivateTargets: boolean };
  mail: MailConfig;
  raw: Env;
}

export class ConfigError extends Error {}

/** Sandbox secrets are fixed and public (docs/product.md#runtime). */
export const SANDBOX_SECRETS = {
  nowpaymentsIpnSecret: 'sandbox-ipn-secret',
  nowpaymentsApiKey: 'sandbox-api-key',
  nowpaymentsEmail: 'sandbox@nowpayments.invalid',
  nowpaymentsPassword: 'sandbox-password',
  telegramBotToken: '0:sandbox-bot-token',
  telegramBotName: 'olympus_sandbox_bot',
  discordClientId: 'sandbox-discord-client',
  discordClientSecret: 'sandbox-discord-secret',
  discordBotToken: 'sandbox-discord-bot-token',
  discordGuildId: '100000000000000042',
  turnstileSiteKey: 'sandbox-site-key',
  turnstileSecret: 'sandbox-turnstile-secret',
  swapApiKey: 'sandbox-swap-api-key',
} as const;

function loadJwtSecret(env: Env, dataDir: string): Uint8Array {
  if (env.JWT_SECRET) return new TextEncoder().encode(env.JWT_SECRET);
  if (env.NODE_ENV === 'production') {
    throw new ConfigError('JWT_SECRET is required in production (at least 32 bytes)');
  }
  // Generated once and kept beside the embedded database so sessions survive a restart.
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return new TextEncoder().encode(secret);
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  const port = env.PORT;
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, '');

  const sandboxes: string[] = [];
  if (!env.NOWPAYMENTS_API_KEY) sandboxes.push('nowpayments');
  if (!env.DISCORD_CLIENT_ID) sandboxes.push('discord');
  if (!env.TELEGRAM_BOT_TOKEN) sandboxes.push('telegram');
  if (!env.TURNSTILE_SECRET) sandboxes.push('turnstile');
  if (!env.SWAP_API_KEY) sandboxes.push('swap');
  if (!env.SMTP_URL) sandboxes.push('mail');

  if (env.NODE_ENV === 'production' && sandboxes.length > 0 && env.ALLOW_SANDBOX !== '1') {
    throw new ConfigError(`Production refuses sandbox providers (${sandboxes.join(', ')}); configure them or set ALLOW_SANDBOX=1`);
  }

  if (env.DISCORD_CLIENT_ID && !env.DISCORD_CLIENT_SECRET) {
    throw new ConfigError('DISCORD_CLIENT_SECRET is required with DISCORD_CLIENT_ID');
  }
  if (!env.DISCORD_BOT_TOKEN !== !env.DISCORD_GUILD_ID) {
    throw new ConfigError('DISCORD_BOT_TOKEN and DISCORD_GUILD_ID go together (the bot writes to members of that server)');
  }
  if (env.DISCORD_BOT_TOKEN && !env.DISCORD_CLIENT_ID) {
    throw new ConfigError('DISCORD_BOT_TOKEN needs DISCORD_CLIENT_ID (connecting is what adds people to the server)');
  }
  if (env.TELEGRAM_BOT_TOKEN && !env.TELEGRAM_BOT_NAME) {
    throw new ConfigError('TELEGRAM_BOT_NAME is required with TELEGRAM_BOT_TOKEN (the Login Widget needs it)');
  }

  const turnstileSandbox = !env.TURNSTILE_SECRET;
  return {
    env: env.NODE_ENV,
    port,
    host: env.HOST,
    dataDir,
    attachmentsDir: env.ATTACHMENTS_DIR
      ? path.resolve(env.ATTACHMENTS_DIR)
      : env.DATA_DIR === 'memory://'
        ? path.join(tmpdir(), `olympus-attachments-${process.pid}-${randomBytes(4).toString('hex')}`)
        : path.join(dataDir, 'attachments'),
    databaseUrl: env.DATABASE_URL,
    databaseDirectUrl: env.DATABASE_URL ? env.DATABASE_DIRECT_URL : undefined,
    databaseTimeouts: { lockMs: env.DATABASE_LOCK_TIMEOUT_MS, statementMs: env.DATABASE_STATEMENT_TIMEOUT_MS },
    jwtSecret: loadJwtSecret(env, dataDir),
    publicUrl,
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY === '1',
    shutdownDrainMs: env.SHUTDOWN_DRAIN_MS,
    rateLimits: env.RATE_LIMITS === '1',
    turnstile: {
      sandbox: turnstileSandbox,
      siteKey: env.TURNSTILE_SITE_KEY ?? SANDBOX_SECRETS.turnstileSiteKey,
      secret: env.TURNSTILE_SECRET ?? SANDBOX_SECRETS.turnstileSecret,
      // null: the sandbox mounted on this server, reached at the address it listens on.
      apiBase: turnstileSandbox
        ? (env.TURNSTILE_API_BASE ?? null)
        : (env.TURNSTILE_API_BASE ?? 'https://challenges.cloudflare.com/turnstile').replace(/\/$/, ''),
    },
    depositLimitsUsd: { min: env.DEPOSIT_MIN_USD, max: env.DEPOSIT_MAX_USD },
    nowpayments: env.NOWPAYMENTS_API_KEY
      ? {
          sandbox: false,
          apiKey: env.NOWPAYMENTS_API_KEY,
          // Without an IPN secret NOWPayments sends no IPN; reconciliation still completes payments.
          ipnSecret: env.NOWPAYMENTS_IPN_SECRET ?? null,
          apiBase: (env.NOWPAYMENTS_API_BASE ?? 'https://api.nowpayments.io/v1').replace(/\/$/, ''),
          login:
            env.NOWPAYMENTS_EMAIL && env.NOWPAYMENTS_PASSWORD ? { email: env.NOWPAYMENTS_EMAIL, password: env.NOWPAYMENTS_PASSWORD } : null,
        }
      : {
          sandbox: true,
          apiKey: SANDBOX_SECRETS.nowpaymentsApiKey,
          ipnSecret: SANDBOX_SECRETS.nowpaymentsIpnSecret,
          apiBase: env.NOWPAYMENTS_API_BASE ? env.NOWPAYMENTS_API_BASE.replace(/\/$/, '') : null,
          login: { email: SANDBOX_SECRETS.nowpaymentsEmail, password: SANDBOX_SECRETS.nowpaymentsPassword },
        },
    discord: env.DISCORD_CLIENT_ID
      ? {
          sandbox: false,
          clientId: env.DISCORD_CLIENT_ID,
          clientSecret: env.DISCORD_CLIENT_SECRET ?? '',
          apiBase: (env.DISCORD_API_BASE ?? 'https://discord.com/api').replace(/\/$/, ''),
          bot: env.DISCORD_BOT_TOKEN && env.DISCORD_GUILD_ID ? { token: env.DISCORD_BOT_TOKEN, guildId: env.DISCORD_GUILD_ID } : null,
        }
      : {
          sandbox: true,
          clientId: SANDBOX_SECRETS.discordClientId,
          clientSecret: SANDBOX_SECRETS.discordClientSecret,
          apiBase: env.DISCORD_API_BASE ? env.DISCORD_API_BASE.replace(/\/$/, '') : null,
          bot: { token: SANDBOX_SECRETS.discordBotToken, guildId: SANDBOX_SECRETS.discordGuildId },
        },
    telegram: env.TELEGRAM_BOT_TOKEN
      ? {
          sandbox: false,
          botToken: env.TELEGRAM_BOT_TOKEN,
          botName: env.TELEGRAM_BOT_NAME ?? '',
          apiBase: (env.TELEGRAM_API_BASE ?? 'https://api.telegram.org').replace(/\/$/, ''),
        }
      : {
          sandbox: true,
          botToken: SANDBOX_SECRETS.telegramBotToken,
          botName: SANDBOX_SECRETS.telegramBotName,
          apiBase: env.TELEGRAM_API_BASE ? env.TELEGRAM_API_BASE.replace(/\/$/, '') : null,
        },
    swap: env.SWAP_API_KEY
      ? {
          sandbox: false,
          apiKey: env.SWAP_API_KEY,
          apiBase: (env.SWAP_API_BASE ?? 'https://api.changenow.io/v1').replace(/\/$/, ''),
          sandboxRateTtlSeconds: env.SWAP_SANDBOX_RATE_TTL_SECONDS,
        }
      : {
          sandbox: true,
          apiKey: SANDBOX_SECRETS.swapApiKey,
          apiBase: env.SWAP_API_BASE ? env.SWAP_API_BASE.replace(/\/$/, '') : null,
          sandboxRateTtlSeconds: env.SWAP_SANDBOX_RATE_TTL_SECONDS,
        },
    rewardPercent: env.REWARD_PERCENT,
    sandboxes,
    webhooks: { allowPrivateTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS === '1' },
    mail: {
      sandbox: !env.SMTP_URL,
      smtpUrl: env.SMTP_URL ?? null,
      from: env.MAIL_FROM ?? `Olympus <no-reply@${new URL(publicUrl).hostname}>`,
      retryDelaySeconds: env.MAIL_RETRY_DELAY_SECONDS,
      maxAttempts: env.MAIL_MAX_ATTEMPTS,
    },
    raw: env,
  };
}
