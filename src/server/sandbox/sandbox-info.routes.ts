import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '#shared/schemas/common.js';
import { sandboxInfoResponseSchema } from '#shared/schemas/sandbox.js';
import type { AppContext } from '#server/context.js';

/**
 * GET /api/sandbox: what runs as a local sandbox here, so the pages can show their sandbox controls and
 * keep every sandboxed screen offline (a local avatar instead of Discord's CDN). Decision 0231.
 */
export function registerSandboxInfo(app: FastifyInstance, ctx: AppContext): void {
  const { config } = ctx;
  const controls = config.env !== 'production';
  const info = {
    sandboxes: [...config.sandboxes],
    controls: {
      payments: controls && config.nowpayments.sandbox && !config.nowpayments.apiBase,
      exchanges: controls && config.swap.sandbox && !config.swap.apiBase,
    },
  };
  app.withTypeProvider<ZodTypeProvider>().get(
    '/sandbox',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['sandbox'],
        summary: 'Which providers run as local sandboxes, and whether pages offer the sandbox controls',
        response: { 200: sandboxInfoResponseSchema, ...errorResponses },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-cache');
      return info;
    },
  );
}
