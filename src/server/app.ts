import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { isAppRoute } from '#shared/routes.js';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { AppError } from './errors.js';
import type { Database } from './db/client.js';
import { JobQueue } from './jobs/job-queue.js';
import { registerAdminMoneyRoutes } from './modules/admin/admin-money.routes.js';
import { registerAdminRoutes } from './modules/admin/admin.routes.js';
import { registerStaffAuditHook } from './modules/audit/staff-audit.hook.js';
import { registerAdRoutes } from './modules/ads/ads.routes.js';
import { registerAuth } from './modules/auth/auth.plugin.js';
import { registerAuthRoutes } from './modules/auth/auth.routes.js';
import { registerCatalogueRoutes } from './modules/catalogue/catalogue.routes.js';
import { registerConnectionRoutes } from './modules/connections/connections.routes.js';
import { registerCreditRoutes } from './modules/credits/credits.routes.js';
import { registerReceiptRoutes } from './modules/credits/receipts.routes.js';
import { registerApiKeyRoutes, registerApiKeys } from './modules/api-keys/api-keys.routes.js';
import { registerChargeRoutes } from './modules/charges/charges.routes.js';
import { registerDebtRoutes } from './modules/credits/debts.routes.js';
import { registerExchange } from './modules/exchange/exchange.module.js';
import { registerHealthRoutes } from './modules/health/health.routes.js';
import { registerMailRoutes } from './modules/mail/mail.routes.js';
import { MailService } from './modules/mail/mail.service.js';
import { registerMaintenance } from './modules/maintenance/prune.js';
import { registerPayments } from './modules/payments/payments.module.js';
import { registerStatus } from './modules/status/status.routes.js';
import { RateLimiter } from './modules/rate-limit/rate-limit.service.js';
import { registerTicketRoutes } from './modules/tickets/tickets.routes.js';
import { registerUserRoutes } from './modules/users/users.routes.js';
import { WebhookEvents } from './modules/webhooks/webhook-events.js';
import { registerWebhooks } from './modules/webhooks/webhooks.module.js';
import { registerStaffTwoFactorGate, registerTwoFactor } from './modules/two-factor/two-factor.routes.js';
import { registerStepUpCheck } from './modules/two-factor/step-up.js';
import { InvalidationBus } from './db/invalidation.js';
import { userReadCache } from './modules/users/user-read-cache.js';
import { registerErrorHandling } from './plugins/errors.js';
import { BatchedLogDestination } from './plugins/log-destination.js';
import { registerMetrics } from './plugins/observability.js';
import { LazyChildLogger, requestLogLine } from './plugins/request-log.js';
import { securityHeaders } from './plugins/security.js';
import { strictValidatorCompiler } from './plugins/strict-input.js';
import { registerSandboxInfo } from './sandbox/sandbox-info.routes.js';
import { registerSandboxes } from './sandbox/sandbox.routes.js';

export interface AppDeps {
  config: Config;
  database: Database;
  /** Whether migrations have been applied (for /readyz). */
  isMigrated?: () => boolean;
  /** Where log lines go (one JSON line per write); standard output, batched, when absent. Tests capture the log with it. */
  logStream?: { write(line: string): void };
}

/** The built single-page app, same relative place from src/server and dist/server. */
const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/web');

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{8,64}$/;

export type App = FastifyInstance;

/** Builds the whole application; server.ts only listens and shuts down. Tests call this too. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const { config } = deps;
  // Batched, off the request's path (docs/decisions/0171); tests may pass their own stream.
  const logStream = config.logLevel === 'silent' ? null : (deps.logStream ?? new BatchedLogDestination());
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            // Never log credentials: headers are not serialized at all, and URLs lose their query string
            // (OAuth codes and Telegram hashes travel there).
            serializers: {
              req: (req: { method: string; url: string; id: string }) => ({
                id: req.id,
                method: req.method,
                path: req.url.split('?')[0],
              }),
            },
            redact: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token'],
            stream: logStream!,
          },
    // One line per request, written when it is answered (below), instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // request.log is made when a request logs something (most never do): request-log.ts.
    childLoggerFactory: (logger, bindings, options) => new LazyChildLogger(logger, bindings, options),
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    },
    bodyLimit: 64 * 1024,
    trustProxy: config.trustProxy,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  }).withTypeProvider<ZodTypeProvider>();

  // Every body, query string and path param: strict input rules, then the route's schema (decision 0110).
  app.setValidatorCompiler(strictValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  // The request log: one line per answered request (method, path without its query, status, time),
  // written to the logger's stream as pino would (request-log.ts: no serializer or redaction needed).
  if (logStream && ['info', 'debug', 'trace'].includes(config.logLevel)) {
    app.addHook('onResponse', (request, reply, done) => {
      logStream.write(requestLogLine(request.id, request.method, request.url, reply.statusCode, reply.elapsedTime));
      done();
    });
  }

  registerErrorHandling(app);

  const headers = securityHeaders(config);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });

  // gzip/brotli for pages, scripts and JSON above 1 KiB (small API answers stay uncompressed).
  await app.register(fastifyCompress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Olympus API', version: '1.0.0', description: 'The API behind the Olympus web app.' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          guestId: { type: 'apiKey', in: 'header', name: 'Guest-ID' },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'olk_live_…',
            description: 'An API key made by an admin in the console (charge API only; a session token is refused there).',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  app.get('/api/docs', { schema: { hide: true } }, async () => app.swagger());

  const jobs = new JobQueue(deps.database, app.log);
  const ctx: AppContext = {
    config,
    database: deps.database,
    rateLimiter: new RateLimiter(deps.database.db, config.rateLimits),
    guestLinkers: [],
    selfUrl: () => selfUrl(app),
    isMigrated: deps.isMigrated ?? (() => true),
    jobs,
    webhookEvents: new WebhookEvents(jobs, app.log),
    mail: new MailService({ database: deps.database, config, jobs, log: app.log }),
    invalidation: new InvalidationBus(deps.database, app.log),
  };
  // Listening starts before the app answers (caches keep entries long only once it listens) and stops on close.
  app.addHook('onReady', async () => ctx.invalidation.start());
  app.addHook('preClose', async () => ctx.invalidation.stop());
  const detachUserCache = userReadCache.attachLiveSource(() => ctx.invalidation.live);
  app.addHook('onClose', async () => {
    detachUserCache();
  });
  ctx.invalidation.onKey((kind, id) => {
    if (kind === 'u') userReadCache.noteUserChanging(id);
  });
  ctx.invalidation.onReset(() => userReadCache.forgetAll());
  // Jobs start once the app is ready (modules have defined theirs) and stop before the database closes.
  app.decorate('jobs', ctx.jobs);
  app.addHook('onReady', async () => ctx.jobs.start());
  app.addHook('preClose', async () => ctx.jobs.stop());

  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (address && typeof address !== 'string') listenAddresses.set(app, address);
  });

  registerMetrics(app);
  registerHealthRoutes(app, ctx);
  registerAuth(app, ctx);
  const apiKeys = registerApiKeys(app, ctx);
  registerStaffTwoFactorGate(app, ctx);
  registerStaffAuditHook(app, ctx);
  const stepUp = registerStepUpCheck(app);
  registerMaintenance(ctx.jobs, ctx.database.db, app.log);

  await app.register(
    async (api) => {
      const auth = registerAuthRoutes(api, ctx);
      registerTwoFactor(api, ctx, auth, stepUp);
      registerUserRoutes(api, ctx, auth);
      registerConnectionRoutes(api, ctx);
      registerTicketRoutes(api, ctx);
      registerAdminRoutes(api, ctx);
      registerCreditRoutes(api, ctx);
      registerDebtRoutes(api, ctx);
      registerReceiptRoutes(api, ctx);
      registerApiKeyRoutes(api, ctx, apiKeys);
      registerChargeRoutes(api, ctx);
      const payments = registerPayments(api, ctx);
      const exchange = registerExchange(api, ctx);
      registerAdminMoneyRoutes(api, ctx, { payments, exchange });
      registerAdRoutes(api, ctx);
      registerStatus(api, ctx);
      registerWebhooks(api, ctx);
      registerMailRoutes(api, ctx);
      registerCatalogueRoutes(api, ctx);
      registerSandboxInfo(api, ctx);
    },
    { prefix: '/api' },
  );
  await app.register(async (sandbox) => registerSandboxes(sandbox, ctx), { prefix: '/sandbox' });

  await registerSinglePageApp(app);
  return app;
}

const listenAddresses = new WeakMap<App, AddressInfo>();

/**
 * The loopback URL this server listens on (sandbox clients call it; PUBLIC_URL may be a proxy).
 * Remembered at listen time: during a graceful shutdown `server.address()` is already null while
 * in-flight requests still finish.
 */
function selfUrl(app: App): string {
  const address = listenAddresses.get(app) ?? app.server.address();
  if (!address || typeof address === 'string') throw new AppError(503, 'UNAVAILABLE', 'Service temporarily unavailable');
  const host = address.family === 'IPv6' ? `[${address.address === '::' ? '::1' : address.address}]` : address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
  return `http://${host}:${address.port}`;
}

async function registerSinglePageApp(app: App): Promise<void> {
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
      return reply.status(404).send({ error: 'Not found', code: 'NOT_FOUND' });
    }
    if (!hasBuild) {
      return reply
        .status(503)
        .type('text/plain')
        .send('The web app is not built. Run `npm run build` (npm start does it for you).');
    }
    // History fallback: the app renders every route, and its 404 page for the rest (with a real 404).
    reply.header('Cache-Control', 'no-cache');
    return reply.status(isAppRoute(pathname) ? 200 : 404).sendFile('index.html');
  });
}
