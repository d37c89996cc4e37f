import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';

/** Tokens the sandbox refuses, so the failure path can be exercised (docs/product.md#runtime). */
export const TURNSTILE_SANDBOX_FAIL_TOKEN = 'sandbox-fail';

/**
 * Imitates Cloudflare's siteverify: form or JSON with `secret` and `response`; answers
 * `{success, error-codes}`. Any token passes except `sandbox-fail`.
 */
export function registerTurnstileSandbox(app: FastifyInstance, ctx: AppContext): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.post('/turnstile/v0/siteverify', { schema: { hide: true } }, async (request) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const errors: string[] = [];
    if (typeof body.secret !== 'string' || !body.secret) errors.push('missing-input-secret');
    else if (body.secret !== ctx.config.turnstile.secret) errors.push('invalid-input-secret');
    if (typeof body.response !== 'string' || !body.response) errors.push('missing-input-response');
    else if (body.response === TURNSTILE_SANDBOX_FAIL_TOKEN) errors.push('invalid-input-response');
    return {
      success: errors.length === 0,
      'error-codes': errors,
      ...(errors.length === 0 ? { challenge_ts: new Date().toISOString(), hostname: 'localhost', action: '', cdata: '' } : {}),
    };
  });
}
