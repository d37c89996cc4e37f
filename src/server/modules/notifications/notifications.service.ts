import { and, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  defaultPreference,
  isLockedCell,
  NOTIFICATION_CHANNELS,
  notificationEventsFor,
  type ChannelState,
  type Notification,
  type NotificationChannel,
  type NotificationEvent,
  type NotificationListResponse,
  type NotificationPreferences,
  type UpdateNotificationPreferencesBody,
} from '#shared/schemas/notifications.js';
import type { Database, DbOrTx, Tx } from '#server/db/client.js';
import type { JobQueue } from '#server/jobs/job-queue.js';
import { readMailPreferences, updateMailPreferences } from '#server/modules/mail/mail-preferences.js';
import type { MailService, OptionalKind } from '#server/modules/mail/mail.service.js';
import { notificationMail } from '#server/modules/mail/templates/notification.js';
import { dashboardPaths, settingsPath } from '#shared/routes.js';
import { users } from '#server/modules/users/users.tables.js';
import { findUserLocale } from '#server/modules/users/users.service.js';
import { translatorFor } from '#server/i18n/translator.js';
import type { ChatChannelName } from './chat-channel.js';
import {
  notificationChannelStates,
  notificationDeliveries,
  notificationPreferences,
  notifications,
  notificationSettings,
  type NotificationRow,
} from './notifications.tables.js';

export const DELIVER_NOTICE_JOB = 'notifications.deliver';
export interface DeliverNoticeJob {
  eventKey: string;
  channel: ChatChannelName;
}

/** Notifications are kept this long (the prune job deletes older ones). */
export const NOTIFICATION_RETENTION_DAYS = 90;
const PAGE_DEFAULT = 20;

/** Who a notice is for: an account, or a guest (in-app only). */
export type Recipient = { userId: string } | { guestId: string };

export interface EmitInput {
  to: Recipient;
  event: NotificationEvent;
  /**
   * Unique per event occurrence (e.g. `payment.credited:<payment id>`): the same key never produces a
   * second notice, in any channel, however often the change is replayed.
   */
  key: string;
  title: string;
  body: string;
  /** A path inside the app ("/payment/complete?id=…"): the thing the notice concerns. */
  link: string;
}

/**
 * The mail preference each event's email cell stands for, where the product mailed before the matrix
 * existed: the one-click unsubscribe links and the old settings keep working because they write the
 * very same column.
 */
const MAIL_KINDS: Partial<Record<NotificationEvent, OptionalKind>> = {
  'payment.credited': 'payment_credited',
  'ticket.reply': 'ticket_reply',
  'order.fulfilled': 'order_updates',
  'order.refunded': 'order_updates',
};
const MAIL_COLUMN: Record<OptionalKind, 'paymentCredited' | 'ticketReply' | 'orderUpdates'> = {
  payment_credited: 'paymentCredited',
  ticket_reply: 'ticketReply',
  order_updates: 'orderUpdates',
};

/**
 * Events whose mail is written by the module where they happen (its own template); the other events
 * get the generic notice mail from here when their email cell is on.
 */
const OWN_MAIL: ReadonlySet<NotificationEvent> = new Set([
  'payment.credited',
  'ticket.reply',
  'order.fulfilled',
  'order.refunded',
  'webhook.disabled',
  'security.sign_in',
  'security.password_changed',
  'security.email_changed',
  'security.two_factor_changed',
  'security.account_restored',
]);

export interface NotificationsDeps {
  database: Database;
  jobs: JobQueue;
  mail: MailService;
  log: FastifyBaseLogger;
}

const encodeKey = (to: Recipient) => ('userId' in to ? to.userId : `g${to.guestId}`);

/** The recipient condition of a query on notifications. */
function owner(to: Recipient): SQL {
  return 'userId' in to ? eq(notifications.userId, to.userId) : and(isNull(notifications.userId), eq(notifications.guestId, to.guestId))!;
}

function toDto(row: NotificationRow): Notification {
  return {
    id: row.id,
    event: row.event as NotificationEvent,
    title: row.title,
    body: row.body,
    link: row.link,
    readAt: row.readAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Notifications (docs/decisions/0260): `emit` is called by the module where an event happens, inside
 * the transaction that makes the change, so a notice exists only if the change commits, once per event
 * key. It writes the in-app row and, per the account's preferences, one delivery row and its job per
 * chat channel (sent by the dispatcher) and the generic mail. It never fails the caller.
 */
export class NotificationsService {
  /** The chat channels the dispatcher can send to (set by the notifications module). */
  private chatChannels: ChatChannelName[] = [];

  constructor(private readonly deps: NotificationsDeps) {}

  useChatChannels(names: ChatChannelName[]): void {
    this.chatChannels = [...names];
  }

  /** The stream key of a recipient on the invalidation bus (`n:<key>`). */
  static streamKey = encodeKey;

  async emit(tx: DbOrTx, input: EmitInput): Promise<void> {
    // A stopped queue (an app closing, a service built without one) would start itself on another
    // connection; inside a transaction that deadlocks. Webhook events and mail behave the same.
    if (!this.deps.jobs.started) return;
    try {
      await tx.transaction(async (savepoint) => this.write(savepoint, input));
    } catch (err) {
      this.deps.log.error({ err, event: input.event, key: input.key }, 'notification could not be written');
    }
  }

  private async write(tx: Tx, input: EmitInput): Promise<void> {
    if (!('userId' in input.to)) {
      await tx
        .insert(notifications)
        .values({
          guestId: input.to.guestId,
          event: input.event,
          eventKey: input.key,
          title: input.title,
          body: input.body,
          link: input.link,
        })
        .onConflictDoNothing({ target: notifications.eventKey });
      return;
    }
    const userId = input.to.userId;
    const wants = await this.cellsFor(tx, userId, input.event);
    if (wants.in_app) {
      await tx
        .insert(notifications)
        .values({ userId, event: input.event, eventKey: input.key, title: input.title, body: input.body, link: input.link })
        .onConflictDoNothing({ target: notifications.eventKey });
    }
    const off = new Set(
      (
        await tx
          .select({ channel: notificationChannelStates.channel })
          .from(notificationChannelStates)
          .where(eq(notificationChannelStates.userId, userId))
      ).map((r) => r.channel),
    );
    const chat = this.chatChannels.filter((c) => wants[c] && !off.has(c));
    if (chat.length > 0) {
      const notice = { title: input.title, body: input.body, link: input.link };
      const inserted = await tx
        .insert(notificationDeliveries)
        .values(chat.map((channel) => ({ eventKey: input.key, channel, userId, event: input.event, notice })))
        .onConflictDoNothing()
        .returning({ channel: notificationDeliveries.channel });
      for (const row of inserted) {
        await this.deps.jobs.send(
          DELIVER_NOTICE_JOB,
          { eventKey: input.key, channel: row.channel as ChatChannelName } satisfies DeliverNoticeJob,
          { tx },
        );
      }
    }
    if (wants.email && !OWN_MAIL.has(input.event) && this.deps.mail.started) {
      const [user] = await tx
        .select({ email: users.email, username: users.username, locale: users.locale })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      // The (event key, email) row is the mail's at-most-once key: only the first write of a key mails.
      const [first] = await tx
        .insert(notificationDeliveries)
        .values({
          eventKey: input.key,
          channel: 'email',
          userId,
          event: input.event,
          notice: { title: input.title, body: input.body, link: input.link },
          status: 'sent',
          sentAt: new Date(),
        })
        .onConflictDoNothing()
        .returning({ channel: notificationDeliveries.channel });
      if (user && first) {
        await this.deps.mail.queueSafely(tx, {
          userId,
          kind: 'notification',
          to: user.email,
          mail: notificationMail(translatorFor(user.locale), {
            username: user.username,
            title: input.title,
            body: input.body,
            url: this.deps.mail.link(input.link),
            settingsUrl: this.deps.mail.link(settingsPath('notifications')),
          }),
        });
      }
    }
  }

  /** Whether each channel is on for one event of one account (defaults, overrides, the mail columns). */
  async cellsFor(db: DbOrTx, userId: string, event: NotificationEvent): Promise<Record<NotificationChannel, boolean>> {
    const rows = await db
      .select({ channel: notificationPreferences.channel, enabled: notificationPreferences.enabled })
      .from(notificationPreferences)
      .where(and(eq(notificationPreferences.userId, userId), eq(notificationPreferences.event, event)));
    const cells = Object.fromEntries(NOTIFICATION_CHANNELS.map((c) => [c, defaultPreference(event, c)])) as Record<
      NotificationChannel,
      boolean
    >;
    for (const r of rows) cells[r.channel as NotificationChannel] = r.enabled;
    const kind = MAIL_KINDS[event];
    if (kind) cells.email = (await readMailPreferences(db, userId))[MAIL_COLUMN[kind]];
    for (const c of NOTIFICATION_CHANNELS) if (isLockedCell(event, c)) cells[c] = true;
    return cells;
  }

  /** Newest first, `limit` at a time; `cursor` is the last id of the previous page. */
  async list(
    to: Recipient,
    query: { cursor?: string | undefined; limit?: number | undefined; unread?: 'true' | 'false' | undefined },
  ): Promise<NotificationListResponse> {
    const db = this.deps.database.db;
    const limit = query.limit ?? PAGE_DEFAULT;
    const filters: SQL[] = [owner(to)];
    if (query.unread === 'true') filters.push(isNull(notifications.readAt));
    if (query.cursor) {
      // Someone else's (or an unknown) id matches no row: an empty page, nothing revealed.
      filters.push(
        sql`(${notifications.createdAt}, ${notifications.id}) < (SELECT c.created_at, c.id FROM notifications c WHERE c.id::text = ${query.cursor} AND ${'userId' in to ? sql`c.user_id = ${to.userId}` : sql`c.user_id IS NULL AND c.guest_id = ${to.guestId}`})`,
      );
    }
    const rows = await db
      .select()
      .from(notifications)
      .where(and(...filters))
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(limit + 1);
    const page = rows.slice(0, limit);
    return {
      notifications: page.map(toDto),
      unreadCount: await this.unreadCount(to),
      nextCursor: rows.length > limit ? page.at(-1)!.id : null,
    };
  }

  async unreadCount(to: Recipient): Promise<number> {
    const [row] = await this.deps.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(notifications)
      .where(and(owner(to), isNull(notifications.readAt)));
    return row?.n ?? 0;
  }

  /** Marks the recipient's own notifications read; ids of someone else's are ignored. */
  async markRead(to: Recipient, body: { ids: string[] } | { all: true }): Promise<{ updated: number; unreadCount: number }> {
    const filters: SQL[] = [owner(to), isNull(notifications.readAt)];
    if ('ids' in body) filters.push(inArray(notifications.id, body.ids));
    const updated = await this.deps.database.db
      .update(notifications)
      .set({ readAt: sql`now()` })
      .where(and(...filters))
      .returning({ id: notifications.id });
    return { updated: updated.length, unreadCount: await this.unreadCount(to) };
  }

  /** Moves what a guest received to the account that signs in with that guestId. */
  async linkGuest(tx: Tx, guestId: string, userId: string): Promise<void> {
    await tx
      .update(notifications)
      .set({ userId, guestId: null })
      .where(and(isNull(notifications.userId), eq(notifications.guestId, guestId)));
  }

  async preferences(userId: string): Promise<NotificationPreferences> {
    const db = this.deps.database.db;
    const overrides = await db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId));
    const mail = await readMailPreferences(db, userId);
    const [account] = await db.select({ role: users.role }).from(users).where(eq(users.id, userId)).limit(1);
    // Staff-only events (an SLA breach) are listed for support and admin accounts only (docs/decisions/0293).
    const matrix = notificationEventsFor(account?.role ?? 'user').map((event) => {
      const channels = {} as NotificationPreferences['matrix'][number]['channels'];
      for (const channel of NOTIFICATION_CHANNELS) {
        const locked = isLockedCell(event, channel);
        const override = overrides.find((o) => o.event === event && o.channel === channel);
        const kind = channel === 'email' ? MAIL_KINDS[event] : undefined;
        const enabled = locked ? true : kind ? mail[MAIL_COLUMN[kind]] : (override?.enabled ?? defaultPreference(event, channel));
        channels[channel] = { enabled, locked };
      }
      return { event, channels };
    });
    const [user] = await db.select({ discord: users.discord, telegram: users.telegram }).from(users).where(eq(users.id, userId)).limit(1);
    const states = await db.select().from(notificationChannelStates).where(eq(notificationChannelStates.userId, userId));
    const channels: ChannelState[] = NOTIFICATION_CHANNELS.map((channel) => {
      const state = states.find((s) => s.channel === channel);
      const connected = channel === 'telegram' ? Boolean(user?.telegram) : channel === 'discord' ? Boolean(user?.discord) : true;
      return { channel, connected, disabledReason: state?.disabledReason ?? null, disabledAt: state?.disabledAt.toISOString() ?? null };
    });
    const [settings] = await db.select().from(notificationSettings).where(eq(notificationSettings.userId, userId)).limit(1);
    return { matrix, channels, lowBalanceThresholdCents: settings?.lowBalanceThresholdCents ?? null };
  }

  /** Changes cells (locked ones are refused by the route), resumes refused channels, sets the threshold. */
  async updatePreferences(userId: string, body: UpdateNotificationPreferencesBody): Promise<NotificationPreferences> {
    await this.deps.database.db.transaction(async (tx) => {
      const mailChange: Partial<Record<'paymentCredited' | 'ticketReply' | 'orderUpdates', boolean>> = {};
      for (const change of body.changes ?? []) {
        const kind = change.channel === 'email' ? MAIL_KINDS[change.event] : undefined;
        if (kind) {
          mailChange[MAIL_COLUMN[kind]] = change.enabled;
          continue;
        }
        await tx
          .insert(notificationPreferences)
          .values({ userId, event: change.event, channel: change.channel, enabled: change.enabled })
          .onConflictDoUpdate({
            target: [notificationPreferences.userId, notificationPreferences.event, notificationPreferences.channel],
            set: { enabled: change.enabled, updatedAt: sql`now()` },
          });
      }
      if (Object.keys(mailChange).length > 0) await updateMailPreferences(tx, userId, mailChange);
      if (body.resumeChannels?.length) {
        await tx
          .delete(notificationChannelStates)
          .where(and(eq(notificationChannelStates.userId, userId), inArray(notificationChannelStates.channel, body.resumeChannels)));
      }
      if (body.lowBalanceThresholdCents !== undefined) {
        await tx
          .insert(notificationSettings)
          .values({ userId, lowBalanceThresholdCents: body.lowBalanceThresholdCents })
          .onConflictDoUpdate({
            target: notificationSettings.userId,
            set: { lowBalanceThresholdCents: body.lowBalanceThresholdCents, updatedAt: sql`now()` },
          });
      }
    });
    return this.preferences(userId);
  }

  /**
   * balance.low: when a ledger entry takes the balance from at or above the account's threshold to below
   * it (heard through the ledger's `credits.changed` event, in its transaction).
   */
  async onBalanceChanged(tx: Tx, userId: string, entryId: string, amountCents: number, balanceCents: number): Promise<void> {
    if (amountCents >= 0) return;
    const [settings] = await tx.select().from(notificationSettings).where(eq(notificationSettings.userId, userId)).limit(1);
    const threshold = settings?.lowBalanceThresholdCents;
    if (threshold === null || threshold === undefined) return;
    const before = balanceCents - amountCents;
    if (!(before >= threshold && balanceCents < threshold)) return;
    const tr = translatorFor(await findUserLocale(tx, userId));
    await this.emit(tx, {
      to: { userId },
      event: 'balance.low',
      key: `balance.low:${entryId}`,
      title: tr.t(/*i18n*/ 'Your balance is low'),
      body: tr.t(/*i18n*/ 'Your balance is {balance} credits, below the {threshold} you asked to be told about.', {
        balance: tr.cents(balanceCents),
        threshold: tr.cents(threshold),
      }),
      link: dashboardPaths.wallet,
    });
  }
}

/** Deletes notifications and chat deliveries older than the retention (the hourly prune job). */
export async function pruneOldNotifications(db: DbOrTx): Promise<number> {
  const interval = sql.raw(`interval '${NOTIFICATION_RETENTION_DAYS} days'`);
  const deleted = await db.execute(sql`DELETE FROM notifications WHERE created_at < now() - ${interval}`);
  await db.execute(sql`DELETE FROM notification_deliveries WHERE created_at < now() - ${interval}`);
  return deleted.rowCount ?? 0;
}
