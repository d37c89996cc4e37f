import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '#shared/schemas/common.js';
import {
  isLockedCell,
  markNotificationsReadBodySchema,
  markNotificationsReadResponseSchema,
  notificationListQuerySchema,
  notificationListResponseSchema,
  notificationPreferencesSchema,
  notificationStreamQuerySchema,
  updateNotificationPreferencesBodySchema,
} from '#shared/schemas/notifications.js';
import { AppError } from '#server/errors.js';
import type { RateLimiter, RateLimitRule } from '#server/modules/rate-limit/rate-limit.service.js';
import { NotificationsService, type Recipient } from './notifications.service.js';
import type { NotificationStreamHub } from './stream-hub.js';

/** Streams a caller may open per minute (each tab holds one; a reconnect opens another). */
const STREAM_LIMIT: RateLimitRule = { name: 'notifications:stream', limit: 60, windowSeconds: 60 };
const DEFAULT_STREAM_SECONDS = 300;

function recipient(request: FastifyRequest): Recipient {
  const auth = request.auth!;
  if (auth.isGuest) return { guestId: auth.guestId! };
  return { userId: auth.userId! };
}

/** The in-app centre and the preferences matrix under /api. */
export function registerNotificationsRoutes(
  app: FastifyInstance,
  deps: { notifications: NotificationsService; hub: NotificationStreamHub; rateLimiter: RateLimiter },
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { notifications, hub } = deps;
  const security: { [label: string]: string[] }[] = [{ bearer: [] }, { bearer: [], guestId: [] }];

  api.get(
    '/notifications',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['notifications'],
        summary: 'My notifications, newest first (cursor-paged), and how many are unread',
        security,
        querystring: notificationListQuerySchema,
        response: { 200: notificationListResponseSchema, ...errorResponses },
      },
    },
    async (request) => notifications.list(recipient(request), request.query),
  );

  api.post(
    '/notifications/read',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['notifications'],
        summary: 'Mark some ({ ids }) or all ({ all: true }) of my notifications read',
        security,
        body: markNotificationsReadBodySchema,
        response: { 200: markNotificationsReadResponseSchema, ...errorResponses },
      },
    },
    async (request) => notifications.markRead(recipient(request), request.body),
  );

  api.get(
    '/notifications/stream',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['notifications'],
        summary:
          'Server-sent events (send Accept: text/event-stream): `unread` with { unreadCount } now and whenever my notifications change; `change` with { topics } (credits, payments, exchanges, orders, tickets, campaigns) when records of mine a screen shows change; ends after `timeout` seconds (connect again)',
        security,
        querystring: notificationStreamQuerySchema,
        produces: ['text/event-stream'],
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const to = recipient(request);
      await deps.rateLimiter.consume(STREAM_LIMIT, NotificationsService.streamKey(to));
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(reply.getHeaders())) if (typeof value === 'string') headers[name] = value;
      headers['x-request-id'] = request.id;
      // Held open only for a client that asks for an event stream (EventSource and the app do); any
      // other caller gets the current count as one event and the end of the answer.
      const wantsStream = (request.headers.accept ?? '').includes('text/event-stream');
      const seconds = wantsStream ? (request.query.timeout ?? DEFAULT_STREAM_SECONDS) : 0;
      reply.hijack();
      await hub.open(NotificationsService.streamKey(to), reply.raw, headers, () => notifications.unreadCount(to), seconds);
    },
  );

  api.get(
    '/users/notification-preferences',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['users'],
        summary: 'The notification matrix (event × channel), channel states and the low-balance threshold',
        security: [{ bearer: [] }],
        response: { 200: notificationPreferencesSchema, ...errorResponses },
      },
    },
    async (request) => notifications.preferences(request.auth!.userId!),
  );

  api.put(
    '/users/notification-preferences',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['users'],
        summary:
          'Change cells of the matrix (security events always reach email and the app), resume a refused chat channel, set the low-balance threshold',
        security: [{ bearer: [] }],
        body: updateNotificationPreferencesBodySchema,
        response: { 200: notificationPreferencesSchema, ...errorResponses },
      },
    },
    async (request) => {
      const locked = (request.body.changes ?? []).find((c) => !c.enabled && isLockedCell(c.event, c.channel));
      if (locked)
        throw new AppError('NOTIFICATION_LOCKED', 'Security notices always go by email and in the app; they cannot be turned off');
      return notifications.updatePreferences(request.auth!.userId!, request.body);
    },
  );
}
