import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { isAppRoute } from '#shared/routes.js';
import { ERROR_STATUS } from '#shared/error-codes.js';

/** The built single-page app, same relative place from src/server/http and dist/server/http. */
const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../dist/web');

/**
 * The web app's files and the history fallback: every other GET that is not under /api or /sandbox
 * and has no file extension answers index.html (404 for paths the app does not know); the rest 404 in JSON.
 */
export async function serveWebApp(app: FastifyInstance): Promise<void> {
  const hasBuild = existsSync(path.join(WEB_DIST, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: WEB_DIST,
      wildcard: false,
      index: false,
      // Our own Cache-Control below, not the plugin's default `public, max-age=0`.
      cacheControl: false,
      setHeaders(res, filePath) {
        // Hashed assets never change; the page itself must always be revalidated.
        res.setHeader(
          'Cache-Control',
          filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
    app.get('/assets/*', { schema: { hide: true } }, (request, reply) => {
      const file = (request.params as { '*': string })['*'];
      return reply.sendFile(`assets/${file}`);
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const wantsPage =
      request.method === 'GET' &&
      pathname !== '/api' &&
      !pathname.startsWith('/api/') &&
      pathname !== '/sandbox' &&
      !pathname.startsWith('/sandbox/') &&
      !path.extname(pathname);
    if (!wantsPage) {
      return reply.status(ERROR_STATUS.NOT_FOUND).send({ error: 'Not found', code: 'NOT_FOUND' });
    }
    if (!hasBuild) {
      return reply.status(503).type('text/plain').send('The web app is not built. Run `npm run build` (npm start does it for you).');
    }
    // History fallback: the app renders every route, and its 404 page for the rest (with a real 404).
    reply.header('Cache-Control', 'no-cache');
    return reply.status(isAppRoute(pathname) ? 200 : 404).sendFile('index.html');
  });
}
