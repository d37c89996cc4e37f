import type { FastifyInstance, onRequestHookHandler, RouteOptions } from 'fastify';
import type { AppContext } from '#server/context.js';
import { addRouteCheck } from '#server/plugins/route-checks.js';
import { registerDiscordSandbox } from './discord/discord.sandbox.js';
import { registerMailSandbox } from './mail/mail.sandbox.js';
import { registerNowPaymentsSandbox } from './nowpayments/nowpayments.sandbox.js';
import { registerSwapSandbox } from './swap/swap.sandbox.js';
import { registerTelegramSandbox } from './telegram/telegram.sandbox.js';
import { registerTurnstileSandbox } from './turnstile/turnstile.sandbox.js';

/**
 * The imitated providers' own surface: what the product's clients and its users' browsers call in place
 * of the real provider (its API, its consent and login pages, its bot API, its avatars). These answer
 * anyone, as the real provider would. Every other sandbox route is a tool for a person trying the product
 * (the mail, Telegram and Discord viewers, the controls that move a payment or an exchange): in
 * production (`ALLOW_SANDBOX=1`) those answer staff only (docs/security.md#sandboxes-in-production).
 */
export const SANDBOX_PROVIDER_ROUTES: readonly RegExp[] = [
  /^\/sandbox\/nowpayments\/v1\//,
  /^\/sandbox\/swap\/v1\//,
  /^\/sandbox\/turnstile\/v0\/siteverify$/,
  /^\/sandbox\/discord\/oauth2\/authorize$/,
  /^\/sandbox\/discord\/api\//,
  /^\/sandbox\/discord\/avatars\//,
  /^\/sandbox\/telegram\/login$/,
  /^\/sandbox\/telegram\/bot:token\//,
];

export function isSandboxProviderRoute(url: string): boolean {
  return SANDBOX_PROVIDER_ROUTES.some((pattern) => pattern.test(url));
}

/**
 * In production every sandbox route that is not the provider's own surface needs a staff session: the
 * bearer token, or for a page the browser opens (a viewer) the web app's `token` cookie. Fail closed: a
 * route added later is a staff tool until it is named above.
 */
function guardToolsInProduction(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (isSandboxProviderRoute(route.url)) return;
    const check: onRequestHookHandler = (request, _reply, done) => {
      app.requireCaller(request, 'staff', { cookie: true }).then(() => done(), done);
    };
    addRouteCheck(route, check);
  });
}

const mounted = new WeakMap<object, Array<{ method: string; url: string }>>();

/** Every route the sandboxes mounted on `app` (the root app), for the test that tries each one in production. */
export function listSandboxRoutes(app: FastifyInstance): ReadonlyArray<{ method: string; url: string }> {
  return mounted.get(app) ?? [];
}

/** Mounts the local imitation of each provider that has no real credentials configured. */
export function registerSandboxes(app: FastifyInstance, ctx: AppContext, root: FastifyInstance = app): void {
  const routes: Array<{ method: string; url: string }> = [];
  mounted.set(root, routes);
  app.addHook('onRoute', (route: RouteOptions) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url });
  });
  if (ctx.config.env === 'production') guardToolsInProduction(app);
  if (ctx.config.turnstile.sandbox) registerTurnstileSandbox(app, ctx);
  if (ctx.config.nowpayments.sandbox) registerNowPaymentsSandbox(app, ctx);
  // Each in its own plugin context: they may add a form parser another sandbox already added.
  if (ctx.config.discord.sandbox) void app.register(async (child) => registerDiscordSandbox(child, ctx));
  if (ctx.config.telegram.sandbox) void app.register(async (child) => registerTelegramSandbox(child, ctx));
  if (ctx.config.swap.sandbox) registerSwapSandbox(app, ctx);
  if (ctx.config.mail.sandbox) registerMailSandbox(app, ctx);
}
