import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { registerStaffAuditHook } from './staff-audit.hook.js';

/**
 * The audit log: every staff action, as sentences with names (decision 0234). Its one part that runs on
 * requests is the hook after every staff change, set on the root with the other request guards so every
 * staff route gets it; other modules write richer entries through audit.service.ts.
 */
export function registerAuditModule(app: FastifyInstance, ctx: AppContext): void {
  registerStaffAuditHook(app, ctx);
}
