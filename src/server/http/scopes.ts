import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { registerSandboxInfo } from '#server/sandbox/sandbox-info.routes.js';
import { registerSandboxes } from '#server/sandbox/sandbox.routes.js';

/**
 * Registers the modules' routes under /api, in one plugin scope, in the order `register` calls them;
 * then `GET /api/sandbox`, which says which providers run against their local sandbox (decision 0231).
 */
export async function mountApi(app: FastifyInstance, ctx: AppContext, register: (api: FastifyInstance) => void): Promise<void> {
  await app.register(
    async (api) => {
      register(api);
      registerSandboxInfo(api, ctx);
    },
    { prefix: '/api' },
  );
}

/** The local imitation of each provider without real credentials, under /sandbox. */
export async function mountSandboxes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (sandbox) => registerSandboxes(sandbox, ctx, app), { prefix: '/sandbox' });
}
