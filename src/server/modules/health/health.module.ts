import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { registerHealthRoutes } from './health.routes.js';

/** Liveness and readiness, on the root (not under /api): probes call them. */
export function registerHealthModule(app: FastifyInstance, ctx: AppContext): void {
  registerHealthRoutes(app, ctx);
}
