import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { NotificationEvent } from '#shared/schemas/notifications.js';
import type { Database } from '#server/db/client.js';
import type { JobQueue } from '#server/jobs/job-queue.js';
import { translatorFor } from '#server/i18n/translator.js';
import { findUserLocale } from '#server/modules/users/users.service.js';
import { ChatDeliveryRetryableError, type ChatChannel, type ChatDeliveryResult } from './chat-channel.js';
import { DELIVER_NOTICE_JOB, type DeliverNoticeJob, type NotificationsService } from './notifications.service.js';
import { notificationChannelStates, notificationDeliveries } from './notifications.tables.js';

/** Attempts of one chat delivery before it is given up (marked failed). */
export const MAX_ATTEMPTS = 6;
/** The first retry waits this long, doubling after each failure, up to RETRY_MAX_MS. */
const RETRY_BASE_MS = 5_000;
const RETRY_MAX_MS = 15 * 60_000;

export interface DispatcherDeps {
  database: Database;
  jobs: JobQueue;
  notifications: NotificationsService;
  channels: ChatChannel[];
  /** The app's public base URL: chat notices carry absolute links. */
  publicUrl: string;
  log: FastifyBaseLogger;
}

/**
 * Sends queued chat notices (docs/decisions/0261). Each delivery row is claimed by moving it from
 * `pending` to `sending` in one statement, so only one worker of one instance ever calls the channel
 * for it: at most once per event and channel. A retryable failure puts it back to `pending` with the
 * next attempt no sooner than both the backoff and the platform's retry-after, and queues the job for
 * then; a refusal turns the channel off for the account with the platform's reason. A worker that dies
 * between the claim and the answer leaves the row `sending`: it is not sent again (at most once).
 */
export class NotificationDispatcher {
  private readonly byName: Map<string, ChatChannel>;

  constructor(private readonly deps: DispatcherDeps) {
    this.byName = new Map(deps.channels.map((c) => [c.name, c]));
  }

  defineJobs(): void {
    this.deps.notifications.useChatChannels(this.deps.channels.map((c) => c.name));
    this.deps.jobs.define<DeliverNoticeJob>({
      name: DELIVER_NOTICE_JOB,
      concurrency: 4,
      retryLimit: 2,
      expireInSeconds: 120,
      handler: async (data) => {
        await this.deliver(data);
      },
    });
  }

  /** One attempt at one delivery; answers what happened (for tests and logs). */
  async deliver(job: DeliverNoticeJob): Promise<'sent' | 'skipped' | 'refused' | 'retry' | 'failed' | 'not-due' | 'taken'> {
    const db = this.deps.database.db;
    const where = and(eq(notificationDeliveries.eventKey, job.eventKey), eq(notificationDeliveries.channel, job.channel));
    const [claimed] = await db
      .update(notificationDeliveries)
      .set({ status: 'sending', attempts: sql`${notificationDeliveries.attempts} + 1`, lastAttemptAt: sql`now()` })
      .where(and(where, eq(notificationDeliveries.status, 'pending'), sql`${notificationDeliveries.nextAttemptAt} <= now()`))
      .returning();
    if (!claimed) {
      const [row] = await db
        .select({ status: notificationDeliveries.status, due: notificationDeliveries.nextAttemptAt })
        .from(notificationDeliveries)
        .where(where)
        .limit(1);
      // Early (a duplicate job, or pg-boss's own retry before the platform's retry-after): its own job is queued.
      return row?.status === 'pending' ? 'not-due' : 'taken';
    }
    const finish = (status: 'sent' | 'skipped' | 'refused' | 'failed', lastError: string | null = null) =>
      db
        .update(notificationDeliveries)
        .set({ status, lastError, ...(status === 'sent' ? { sentAt: sql`now()` } : {}) })
        .where(where);

    const channel = this.byName.get(job.channel);
    // Turned off after a refusal, or by the account since the notice was queued: nothing to send.
    const [off] = await db
      .select({ reason: notificationChannelStates.disabledReason })
      .from(notificationChannelStates)
      .where(and(eq(notificationChannelStates.userId, claimed.userId), eq(notificationChannelStates.channel, job.channel)))
      .limit(1);
    const cells = await this.deps.notifications.cellsFor(db, claimed.userId, claimed.event as NotificationEvent);
    if (!channel || off || !cells[job.channel]) {
      await finish('skipped', !channel ? 'channel not configured' : off ? `channel off: ${off.reason}` : 'turned off in settings');
      return 'skipped';
    }

    // The title and body were written in the reader's language with the notice; the link's words are added here.
    const tr = translatorFor(await findUserLocale(db, claimed.userId));
    let result: ChatDeliveryResult;
    try {
      result = await channel.deliver(claimed.userId, {
        event: claimed.event,
        title: claimed.notice.title,
        body: claimed.notice.body,
        link: new URL(claimed.notice.link, `${this.deps.publicUrl}/`).toString(),
        // English is the channel's own words (TELEGRAM_LINK_LABEL).
        ...(tr.locale === 'en' ? {} : { linkLabel: tr.t(/*i18n*/ 'Open in Olympus') }),
      });
    } catch (err) {
      const retryAfterMs = err instanceof ChatDeliveryRetryableError ? err.retryAfterMs : null;
      const message = err instanceof Error ? err.message : String(err);
      if (claimed.attempts >= MAX_ATTEMPTS) {
        await finish('failed', message.slice(0, 500));
        this.deps.log.warn({ event: claimed.event, channel: job.channel, attempts: claimed.attempts }, 'chat notice given up');
        return 'failed';
      }
      const backoff = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (claimed.attempts - 1));
      const delayMs = Math.max(backoff, retryAfterMs ?? 0);
      await db.transaction(async (tx) => {
        await tx
          .update(notificationDeliveries)
          .set({ status: 'pending', lastError: message.slice(0, 500), nextAttemptAt: sql`now() + ${`${delayMs} milliseconds`}::interval` })
          .where(where);
        await this.deps.jobs.send(DELIVER_NOTICE_JOB, job, { tx, startAfterSeconds: Math.ceil(delayMs / 1000) });
      });
      return 'retry';
    }

    if (result.outcome === 'sent') {
      await finish('sent');
      return 'sent';
    }
    if (result.outcome === 'not-connected') {
      await finish('skipped', 'not connected');
      return 'skipped';
    }
    await db.transaction(async (tx) => {
      await tx
        .update(notificationDeliveries)
        .set({ status: 'refused', lastError: result.reason.slice(0, 500) })
        .where(where);
      await tx
        .insert(notificationChannelStates)
        .values({ userId: claimed.userId, channel: job.channel, disabledReason: result.reason.slice(0, 500) })
        .onConflictDoUpdate({
          target: [notificationChannelStates.userId, notificationChannelStates.channel],
          set: { disabledReason: result.reason.slice(0, 500), disabledAt: sql`now()` },
        });
    });
    this.deps.log.info({ channel: job.channel, event: claimed.event }, 'chat channel refused; turned off for the account');
    return 'refused';
  }
}
