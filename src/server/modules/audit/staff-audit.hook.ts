import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '#server/context.js';
import { findUserById } from '#server/modules/users/users.service.js';
import { recordAudit } from './audit.service.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route writes its own audit entry (with before and after) inside its transaction. */
    audited?: boolean;
  }
}

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Request fields never copied into the audit log. */
const SECRET_FIELDS = new Set(['password', 'currentPassword', 'newPassword', 'secret', 'token', 'twoFactorCode', 'twoFactorAssertion']);
/** Free text (messages, notes, bodies): the log keeps its length, never the words (docs/decisions/0234). */
const TEXT_FIELDS = new Set(['message', 'body', 'note', 'text', 'comment', 'content', 'description']);
/** Any other string longer than this is free text too. */
const LONG_TEXT = 120;

export function redactForAudit(body: unknown, depth = 0): unknown {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return body.length > LONG_TEXT ? { length: body.length } : body;
  if (typeof body !== 'object' || depth > 3) return Array.isArray(body) ? { items: body.length } : body;
  if (Array.isArray(body)) return body.map((v) => redactForAudit(v, depth + 1));
  return Object.fromEntries(
    Object.entries(body).map(([k, v]) => {
      if (SECRET_FIELDS.has(k)) return [k, '[redacted]'];
      if (TEXT_FIELDS.has(k) && typeof v === 'string') return [k, { length: v.length }];
      return [k, redactForAudit(v, depth + 1)];
    }),
  );
}

/**
 * Every successful change made through a staff or admin route lands in the audit log (every staff action
 * is audited: decision 0234). Routes that record a richer entry themselves set `config.audited`.
 * Recorded after the change commits: a failed audit write is logged, never turned into a failed action.
 */
export function registerStaffAuditHook(app: FastifyInstance, ctx: AppContext): void {
  // Attached to the staff and admin routes that change something and do not audit themselves.
  app.addHook('onRoute', (route) => {
    const config = route.config as { auth?: string; audited?: boolean } | undefined;
    if (!config || config.audited || (config.auth !== 'staff' && config.auth !== 'admin')) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((m) => CHANGES.has(m))) return;
    const hooks = route.onResponse === undefined ? [] : Array.isArray(route.onResponse) ? route.onResponse : [route.onResponse];
    route.onResponse = [...hooks, audit];
  });
  async function audit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (!CHANGES.has(request.method) || reply.statusCode >= 400) return;
    const actorId = request.auth?.userId;
    if (!actorId) return;
    try {
      const actor = await findUserById(ctx.database.db, actorId);
      const route = request.routeOptions.url ?? request.url;
      const params = (request.params ?? {}) as Record<string, unknown>;
      const body = request.body as Record<string, unknown> | undefined;
      await recordAudit(ctx.database.db, {
        actor: { id: actorId, username: actor?.username ?? 'unknown' },
        action: `${request.method} ${route}`,
        targetType: route.replace(/^\/api\//, '').split('/')[route.startsWith('/api/staff/') ? 1 : 0] ?? 'api',
        targetId: typeof params.id === 'string' ? params.id : typeof body?.userId === 'string' ? body.userId : null,
        after: { request: redactForAudit(body), status: reply.statusCode },
      });
    } catch (err) {
      request.log.error({ err }, 'could not record a staff action in the audit log');
    }
  }
}
