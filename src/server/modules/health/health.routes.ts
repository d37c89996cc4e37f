import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';

/** Liveness, readiness (database reachable, migrations applied). Not under /api: probes call them. */
export function registerHealthRoutes(app: FastifyInstance, deps: AppContext): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    // Draining before a stop: the proxy takes this instance out while it still answers (decision 0273).
    if (deps.isStopping()) return reply.status(503).send({ status: 'stopping', checks: {} });
    const migrated = deps.isMigrated();
    let database = false;
    try {
      await Promise.race([
        deps.database.pool.query('SELECT 1'),
        new Promise((_, reject) => setTimeout(() => reject(new Error('database timeout')), 2000)),
      ]);
      database = true;
    } catch (err) {
      request.log.warn({ err }, 'readiness: database unreachable');
    }
    const ready = database && migrated;
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks: { database, migrations: migrated } });
  });
}
