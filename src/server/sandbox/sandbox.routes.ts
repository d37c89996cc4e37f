import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { registerDiscordSandbox } from './discord/discord.sandbox.js';
import { registerMailSandbox } from './mail/mail.sandbox.js';
import { registerNowPaymentsSandbox } from './nowpayments/nowpayments.sandbox.js';
import { registerSwapSandbox } from './swap/swap.sandbox.js';
import { registerTelegramSandbox } from './telegram/telegram.sandbox.js';
import { registerTurnstileSandbox } from './turnstile/turnstile.sandbox.js';

/** Mounts the local imitation of each provider that has no real credentials configured. */
export function registerSandboxes(app: FastifyInstance, ctx: AppContext): void {
  if (ctx.config.turnstile.sandbox) registerTurnstileSandbox(app, ctx);
  if (ctx.config.nowpayments.sandbox) registerNowPaymentsSandbox(app, ctx);
  // Each in its own plugin context: they may add a form parser another sandbox already added.
  if (ctx.config.discord.sandbox) void app.register(async (child) => registerDiscordSandbox(child, ctx));
  if (ctx.config.telegram.sandbox) void app.register(async (child) => registerTelegramSandbox(child, ctx));
  if (ctx.config.swap.sandbox) registerSwapSandbox(app, ctx);
  if (ctx.config.mail.sandbox) registerMailSandbox(app, ctx);
}
