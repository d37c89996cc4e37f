import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { PRUNE_JOB, pruneDeadRows } from './prune.js';

/**
 * Runs the pruning hourly on one instance (pg-boss cron: one job per tick across instances): the
 * retention table of the README, "How long we keep things" (docs/decisions/0251).
 */
export function registerMaintenanceModule(app: FastifyInstance, ctx: AppContext): void {
  const db = ctx.database.db;
  ctx.jobs.define({
    name: PRUNE_JOB,
    cron: '17 * * * *',
    expireInSeconds: 600,
    retryLimit: 1,
    handler: async () => {
      const result = await pruneDeadRows(db, ctx.config.attachmentsDir);
      app.log.info(result, 'pruned dead bookkeeping rows');
    },
  });
}
