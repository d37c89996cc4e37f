import { z } from 'zod';
import { EXCHANGE_STATUSES } from '#shared/exchange-statuses.js';

/** Where the payment sandbox can move a payment (NOWPayments' own statuses), in the order a payment goes. */
export const SANDBOX_PAYMENT_STATUSES = [
  'waiting',
  'confirming',
  'confirmed',
  'sending',
  'partially_paid',
  'finished',
  'failed',
  'refunded',
  'expired',
] as const;
export type SandboxPaymentStatus = (typeof SANDBOX_PAYMENT_STATUSES)[number];

/** Where the swap sandbox can move an exchange: the provider's statuses but our own `new` and `verifying`. */
export const SANDBOX_EXCHANGE_STATUSES = EXCHANGE_STATUSES.filter((s) => s !== 'new' && s !== 'verifying');

/**
 * GET /api/sandbox: which providers run as local sandboxes on this server, and whether the pages offer
 * the sandbox controls (never in production, even with ALLOW_SANDBOX=1; decision 0231).
 */
export const sandboxInfoResponseSchema = z.object({
  /** Provider names: nowpayments, discord, telegram, turnstile, swap, mail. */
  sandboxes: z.array(z.string()),
  controls: z.object({
    /** The payment page may move a payment with POST /sandbox/nowpayments/payments/{id}/status. */
    payments: z.boolean(),
    /** The exchange page may move an exchange with POST /sandbox/swap/exchanges/{id}/status. */
    exchanges: z.boolean(),
  }),
});
export type SandboxInfo = z.infer<typeof sandboxInfoResponseSchema>;

/**
 * Where a sandbox Discord account's avatar is served ({path}/{discord id}/{avatar hash}.svg), in place of
 * Discord's CDN: a sandboxed product loads nothing from the internet (decision 0231).
 */
export const DISCORD_SANDBOX_AVATAR_PATH = '/sandbox/discord/avatars';

export function discordAvatarUrl(id: string, avatar: string, sandboxed: boolean): string {
  return sandboxed
    ? `${DISCORD_SANDBOX_AVATAR_PATH}/${encodeURIComponent(id)}/${encodeURIComponent(avatar)}.svg`
    : `https://cdn.discordapp.com/avatars/${encodeURIComponent(id)}/${encodeURIComponent(avatar)}.png?size=64`;
}
