import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { STORAGE_KEYS, TOKEN_COOKIE, type Locale } from '#shared/constants.js';
import { isAppRoute } from '#shared/routes.js';
import { ERROR_STATUS } from '#shared/error-codes.js';
import type { AppContext } from '#server/context.js';
import { AppError } from '#server/errors.js';
import { acceptedLocale, cookieValue, supportedLocale } from '#server/i18n/request-language.js';
import { userReadCache } from '#server/modules/users/user-read-cache.js';
import { findUserById } from '#server/modules/users/users.service.js';
import { localizedIndexHtml } from './page-head.js';

/** The built single-page app, same relative place from src/server/http and dist/server/http. */
const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../dist/web');

/**
 * The language the visitor will see once the app runs (docs/decisions/0331), in the app's own order: the
 * choice made on this device (the web keeps it in local storage and in the `locale` cookie), else the
 * signed-in account's `users.locale` (read through the `token` cookie, from the session and user caches
 * every signed-in call uses), else the browser's `Accept-Language`, else English.
 */
async function visitorLocale(app: FastifyInstance, ctx: AppContext, request: FastifyRequest): Promise<Locale> {
  const chosen = supportedLocale(cookieValue(request.headers.cookie, STORAGE_KEYS.locale));
  if (chosen) return chosen;
  if (cookieValue(request.headers.cookie, TOKEN_COOKIE.name)) {
    try {
      await app.requireCaller(request, 'user', { cookie: true });
      const userId = request.auth?.userId;
      const user = userId ? await userReadCache.get(userId, (id) => findUserById(ctx.database.db, id)) : null;
      const account = supportedLocale(user?.locale);
      if (account) return account;
    } catch (err) {
      // An ended or foreign session, or a guest: the page is the same as for anyone. The page never
      // fails for its language: a database that cannot answer now leaves it to the browser's.
      if (!(err instanceof AppError)) request.log.warn({ err }, 'page language: the account could not be read');
    }
  }
  return acceptedLocale(request.headers['accept-language']) ?? 'en';
}

/**
 * The web app's files and the history fallback: every other GET that is not under /api or /sandbox
 * and has no file extension answers index.html (404 for paths the app does not know), its head in the
 * visitor's language (./page-head.ts); the rest 404 in JSON.
 */
export async function serveWebApp(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const hasBuild = existsSync(path.join(WEB_DIST, 'index.html'));
  // Read once: a new build is a new deploy, which restarts the server.
  const template = hasBuild ? readFileSync(path.join(WEB_DIST, 'index.html'), 'utf8') : '';
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

  app.setNotFoundHandler(async (request, reply) => {
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
    const found = isAppRoute(pathname);
    const locale = await visitorLocale(app, ctx, request);
    // Revalidated every time (a new deploy is picked up at once); a shared cache keys it by language.
    reply.header('Cache-Control', 'no-cache');
    reply.header('Vary', 'Accept-Language, Cookie');
    reply.header('Content-Language', locale);
    return reply
      .status(found ? 200 : 404)
      .type('text/html; charset=utf-8')
      .send(localizedIndexHtml(template, { locale, pathname, found, publicUrl: ctx.config.publicUrl }));
  });
}
