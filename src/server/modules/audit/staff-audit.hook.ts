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

function redact(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body ?? null;
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, SECRET_FIELDS.has(k) ? '[redacted]' : v]));
}

/**
 * Every successful change made through a staff or admin route lands in the audit log (issue "Operator
 * console": every staff action). Routes that record a richer entry themselves set `config.audited`.
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
        after: { request: redact(body), status: reply.statusCode },
      });
    } catch (err) {
      request.log.error({ err }, 'could not record a staff action in the audit log');
    }
  }
}
