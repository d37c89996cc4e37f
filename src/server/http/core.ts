import { randomUUID } from 'node:crypto';
import type { AdImageFetcher } from '#server/modules/ads/ad-images.js';
import type { AddressInfo } from 'node:net';
import fastifyCompress from '@fastify/compress';
import fastifySwagger from '@fastify/swagger';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject, serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '#server/config.js';
import type { AppContext } from '#server/context.js';
import type { Database } from '#server/db/client.js';
import { InvalidationBus } from '#server/db/invalidation.js';
import { AppError } from '#server/errors.js';
import { DomainEvents } from '#server/events/domain-events.js';
import { JobQueue } from '#server/jobs/job-queue.js';
import { MailService } from '#server/modules/mail/mail.service.js';
import type { ChatChannel } from '#server/modules/notifications/chat-channel.js';
import { NotificationsService } from '#server/modules/notifications/notifications.service.js';
import { createRateLimitModule } from '#server/modules/rate-limit/rate-limit.module.js';
import { userReadCache } from '#server/modules/users/user-read-cache.js';
import { WebhookEvents } from '#server/modules/webhooks/webhook-events.js';
import { registerErrorHandling } from '#server/plugins/errors.js';
import { BatchedLogDestination } from '#server/plugins/log-destination.js';
import { registerMetrics } from '#server/plugins/observability.js';
import { LazyChildLogger, requestLogLine } from '#server/plugins/request-log.js';
import { securityHeaders } from '#server/plugins/security.js';
import { strictValidatorCompiler } from '#server/plugins/strict-input.js';
import { traceHooks } from '#server/tracing/hooks.js';

export interface AppDeps {
  config: Config;
  database: Database;
  /** Whether migrations have been applied (for /readyz). */
  isMigrated?: () => boolean;
  /** Whether the process is stopping (for /readyz during the drain of decision 0273). */
  isStopping?: () => boolean;
  /** Where log lines go (one JSON line per write); standard output, batched, when absent. Tests capture the log with it. */
  logStream?: { write(line: string): void };
  /** The chat apps notifications go to (Telegram, Discord); none when absent. */
  chatChannels?: ChatChannel[];
  /** How often each job worker polls for work (2 s when absent); tests of the queue's shutdown shorten it. */
  jobPollingIntervalSeconds?: number;
  /** How approved ad images are fetched (docs/decisions/0303); over HTTPS with the webhooks' address checks when absent. Tests pass their own. */
  adImageFetcher?: AdImageFetcher;
}

export type App = FastifyInstance;

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * The core every module stands on: the Fastify instance with its plumbing (logging, request ids,
 * strict input, error handling, security headers, compression, the OpenAPI document, metrics) and the
 * context of shared services, each built once (docs/decisions/0220). No route of a module yet.
 */
/**
 * The services that deliver what the product tells people, built once here and handed by app.ts to the
 * modules that own them (mail, notifications, webhooks) and to the few that send a mail or a notice
 * directly (decision 0322). Everything else reports a domain event on `ctx.events`.
 */
export interface DeliveryServices {
  mail: MailService;
  notifications: NotificationsService;
  webhookEvents: WebhookEvents;
}

export async function createCore(deps: AppDeps): Promise<{ app: App; ctx: AppContext; delivery: DeliveryServices }> {
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
    // Start-up hooks (listening for cache invalidations, starting the job queue) wait on the database;
    // on a busy machine or a database still warming up they can take longer than Fastify's 10 s default,
    // and a start that gives up is worse than a slow one (/readyz answers only once it is done).
    pluginTimeout: 120_000,
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
  // With traces on (decision 0272) the line also carries the request's trace id, taken when the request
  // arrives (inside its span); with them off this is the hook as it always was.
  const traces = traceHooks.current;
  if (logStream && ['info', 'debug', 'trace'].includes(config.logLevel)) {
    if (!traces) {
      app.addHook('onResponse', (request, reply, done) => {
        logStream.write(requestLogLine(request.id, request.method, request.url, reply.statusCode, reply.elapsedTime));
        done();
      });
    } else {
      const traceIds = new WeakMap<object, string>();
      app.addHook('onRequest', (request, _reply, done) => {
        const traceId = traces.traceId();
        if (traceId) traceIds.set(request, traceId);
        done();
      });
      app.addHook('onResponse', (request, reply, done) => {
        logStream.write(
          requestLogLine(request.id, request.method, request.url, reply.statusCode, reply.elapsedTime, traceIds.get(request)),
        );
        done();
      });
    }
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

  const { ctx, delivery } = buildContext(app, deps);

  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (address && typeof address !== 'string') listenAddresses.set(app, address);
  });

  registerMetrics(app);
  return { app, ctx, delivery };
}

/** The shared services, each built once per app, with the hooks that start and stop them. */
function buildContext(app: App, deps: AppDeps): { ctx: AppContext; delivery: DeliveryServices } {
  const { config } = deps;
  const jobs = new JobQueue(
    deps.database,
    app.log,
    deps.jobPollingIntervalSeconds ? { pollingIntervalSeconds: deps.jobPollingIntervalSeconds } : {},
  );
  const mail = new MailService({ database: deps.database, config, jobs, log: app.log });
  const delivery: DeliveryServices = {
    mail,
    notifications: new NotificationsService({ database: deps.database, jobs, mail, log: app.log }),
    webhookEvents: new WebhookEvents(jobs, app.log),
  };
  const ctx: AppContext = {
    config,
    database: deps.database,
    rateLimiter: createRateLimitModule(deps.database.db, config.rateLimits),
    guestLinkers: [],
    selfUrl: () => selfUrl(app),
    isMigrated: deps.isMigrated ?? (() => true),
    isStopping: deps.isStopping ?? (() => false),
    jobs,
    events: new DomainEvents(),
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
  app.decorate('events', ctx.events);
  app.addHook('onReady', async () => ctx.jobs.start());
  app.addHook('preClose', async () => ctx.jobs.stop());
  return { ctx, delivery };
}

const listenAddresses = new WeakMap<App, AddressInfo>();

/**
 * The loopback URL this server listens on (sandbox clients call it; PUBLIC_URL may be a proxy).
 * Remembered at listen time: during a graceful shutdown `server.address()` is already null while
 * in-flight requests still finish.
 */
function selfUrl(app: App): string {
  const address = listenAddresses.get(app) ?? app.server.address();
  if (!address || typeof address === 'string') throw new AppError('UNAVAILABLE', 'Service temporarily unavailable');
  const host =
    address.family === 'IPv6'
      ? `[${address.address === '::' ? '::1' : address.address}]`
      : address.address === '0.0.0.0'
        ? '127.0.0.1'
        : address.address;
  return `http://${host}:${address.port}`;
}
