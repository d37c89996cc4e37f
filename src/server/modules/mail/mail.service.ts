import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '#server/config.js';
import type { Database, DbOrTx, Tx } from '#server/db/client.js';
import type { JobQueue } from '#server/jobs/job-queue.js';
import { mailMessages, mailPreferences, type MailMessageRow, type MailStatus } from './mail.tables.js';
import { sandboxTransport, smtpTransport, type MailTransport } from './mail.transport.js';
import type { RenderedMail } from './templates/layout.js';

/**
 * The one mail queue. Its jobs: `{ messageId }` sends a message; `{ task, ...data }` runs a task another
 * module registered (the password-reset lookup); the minute cron's empty job sweeps lost messages. One
 * queue rather than three: each pg-boss queue is a partition table made at start, slow on the embedded database.
 */
export const SEND_JOB = 'mail.send';
/** A claimed send that has not finished after this long is considered lost and may be claimed again. */
const LEASE_SECONDS = 120;

/** Optional notifications a user can turn off; every other kind is a security or account mail. */
export const OPTIONAL_KINDS = ['payment_credited', 'ticket_reply', 'order_updates'] as const;
export type OptionalKind = (typeof OPTIONAL_KINDS)[number];

export type MailKind =
  | 'verify_email'
  | 'reset_password'
  | 'password_changed'
  | 'email_change_confirm'
  | 'email_change_requested'
  | 'email_changed'
  | 'new_device'
  | 'two_factor_notice'
  | 'webhook_disabled'
  | 'account_closing'
  | 'account_restored'
  | 'account_closure_held'
  | 'data_export_ready'
  | 'status_confirm'
  | 'status_notice'
  /** A notice of the notifications module for an event that has no mail of its own. */
  | 'notification'
  | OptionalKind;

export interface QueueMailInput {
  userId: string | null;
  kind: MailKind;
  to: string;
  mail: RenderedMail;
  /** The message carries a one-time link: its body is erased once sent or failed for good. */
  sensitive?: boolean;
  headers?: Record<string, string>;
}

export interface MailServiceDeps {
  database: Database;
  config: Config;
  jobs: JobQueue;
  log: FastifyBaseLogger;
  /** Tests substitute nothing here: SMTP_URL points at a real (test) SMTP server. */
  transport?: MailTransport;
}

/**
 * Mail delivery (decision 0130): messages are rendered and written to the outbox in the caller's
 * transaction, with a `mail.send` job on the same connection, so a request never waits for SMTP and a
 * rolled-back change sends nothing. The job claims the message (one worker, even with two instances or
 * a duplicated job), sends it, and on failure schedules its own retry with doubling delay until
 * MAIL_MAX_ATTEMPTS, after which the message is `failed` and staff see it.
 */
export class MailService {
  readonly transport: MailTransport;

  constructor(private readonly deps: MailServiceDeps) {
    const { config } = deps;
    this.transport =
      deps.transport ??
      (config.mail.smtpUrl ? smtpTransport(config.mail.smtpUrl, new URL(config.publicUrl).hostname) : sandboxTransport(deps.database.db));
  }

  get config(): Config {
    return this.deps.config;
  }

  /** True once its job queue runs (a stopped queue would start itself inside a transaction: deadlock). */
  get started(): boolean {
    return this.deps.jobs.started;
  }

  /** A link into the app, built from PUBLIC_URL. */
  link(path: string, query: Record<string, string> = {}): string {
    const url = new URL(path, `${this.deps.config.publicUrl}/`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    return url.toString();
  }

  /** Defines the send job and the sweep; called once while the app is built. */
  defineJobs(): void {
    this.deps.jobs.define<{ messageId?: string; task?: string }>({
      name: SEND_JOB,
      cron: '* * * * *',
      // Sending failures are retried by `deliver` itself; pg-boss retries only a run that crashed.
      retryLimit: 2,
      expireInSeconds: LEASE_SECONDS,
      concurrency: 2,
      handler: async (data) => {
        if (typeof data.messageId === 'string') return this.deliver(data.messageId);
        if (typeof data.task === 'string') {
          const task = this.tasks.get(data.task);
          if (task) await task(data as Record<string, unknown>);
          return;
        }
        return this.sweep();
      },
    });
  }

  private readonly tasks = new Map<string, (data: Record<string, unknown>) => Promise<void>>();

  /** Background work that ends in a mail (e.g. the password-reset lookup), run by the mail queue. */
  defineTask(name: string, handler: (data: Record<string, unknown>) => Promise<void>): void {
    this.tasks.set(name, handler);
  }

  /** Queues a registered task; with `tx`, on that transaction (the task exists only if it commits). */
  async runTask(name: string, data: Record<string, unknown>, options: { tx?: Tx } = {}): Promise<void> {
    if (!this.tasks.has(name)) throw new Error(`unknown mail task ${name}`);
    await this.deps.jobs.send(SEND_JOB, { ...data, task: name }, options.tx ? { tx: options.tx } : {});
  }

  /** Writes the message to the outbox and queues its job, on `db` (a transaction: both commit together). */
  async queue(db: DbOrTx, input: QueueMailInput): Promise<string> {
    const insert = async (tx: DbOrTx) => {
      const [row] = await tx
        .insert(mailMessages)
        .values({
          userId: input.userId,
          kind: input.kind,
          to: input.to,
          subject: input.mail.subject,
          text: input.mail.text,
          html: input.mail.html,
          headers: input.headers ?? {},
          sensitive: input.sensitive ?? false,
        })
        .returning({ id: mailMessages.id });
      await this.deps.jobs.send(SEND_JOB, { messageId: row!.id }, { tx: tx as Tx });
      return row!.id;
    };
    // Outside a transaction, open one: the row and its job exist together or not at all.
    return db === this.deps.database.db ? this.deps.database.db.transaction(insert) : insert(db);
  }

  /**
   * Queues a mail without ever failing the caller: mail is never a reason for a request to fail. The
   * error is logged without the message (it may hold a one-time link).
   */
  async queueSafely(db: DbOrTx, input: QueueMailInput): Promise<string | null> {
    try {
      if (db === this.deps.database.db) return await this.queue(db, input);
      // Inside the caller's transaction: a savepoint, so a failure here does not undo the caller's change.
      return await (db as Tx).transaction((savepoint) => this.queue(savepoint, input));
    } catch (err) {
      this.deps.log.error({ err: safeError(err), kind: input.kind, userId: input.userId }, 'mail could not be queued');
      return null;
    }
  }

  /**
   * queueSafely() for many mails in the caller's transaction (group commit of IPNs,
   * docs/decisions/0191): one savepoint, one insert of messages, one insert of their jobs.
   */
  async queueManySafely(tx: Tx, inputs: QueueMailInput[]): Promise<void> {
    if (inputs.length === 0) return;
    try {
      await tx.transaction(async (savepoint) => {
        const column = <T>(pick: (input: QueueMailInput) => T) => sql.param(inputs.map(pick));
        const inserted = await savepoint.execute<{ id: string }>(sql`
          INSERT INTO mail_messages (user_id, kind, to_address, subject, text_body, html_body, headers, sensitive)
          SELECT v.user_id, v.kind, v.to_address, v.subject, v.text_body, v.html_body, v.headers::jsonb, v.sensitive
          FROM unnest(
            ${column((i) => i.userId)}::uuid[], ${column((i) => i.kind)}::text[], ${column((i) => i.to)}::text[],
            ${column((i) => i.mail.subject)}::text[], ${column((i) => i.mail.text)}::text[], ${column((i) => i.mail.html)}::text[],
            ${column((i) => JSON.stringify(i.headers ?? {}))}::text[], ${column((i) => i.sensitive ?? false)}::bool[]
          ) WITH ORDINALITY AS v(user_id, kind, to_address, subject, text_body, html_body, headers, sensitive, n)
          ORDER BY v.n
          RETURNING id`);
        await this.deps.jobs.sendMany(
          SEND_JOB,
          inserted.rows.map((r) => ({ messageId: r.id })),
          { tx: savepoint },
        );
      });
    } catch (err) {
      this.deps.log.error(
        { err: safeError(err), kinds: [...new Set(inputs.map((i) => i.kind))], count: inputs.length },
        'mails could not be queued',
      );
    }
  }

  /** Whether the user wants this optional notification (no preferences row: yes). */
  async wants(db: DbOrTx, userId: string, kind: OptionalKind): Promise<boolean> {
    const [row] = await db.select().from(mailPreferences).where(eq(mailPreferences.userId, userId)).limit(1);
    if (!row) return true;
    return { payment_credited: row.paymentCredited, ticket_reply: row.ticketReply, order_updates: row.orderUpdates }[kind];
  }

  /** An unsubscribe token: the user and the kind, signed with the server key (no expiry, no state). */
  unsubscribeToken(userId: string, kind: OptionalKind): string {
    const body = Buffer.from(`${userId}.${kind}`).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  readUnsubscribeToken(token: string): { userId: string; kind: OptionalKind } | null {
    const [body, mac, ...rest] = token.split('.');
    if (!body || !mac || rest.length) return null;
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const [userId, kind] = Buffer.from(body, 'base64url').toString('utf8').split('.');
    if (!userId || !(OPTIONAL_KINDS as readonly string[]).includes(kind ?? '')) return null;
    return { userId, kind: kind as OptionalKind };
  }

  private mac(body: string): string {
    return createHmac('sha256', this.deps.config.jwtSecret).update(`mail-unsubscribe:${body}`).digest('base64url');
  }

  /** The unsubscribe link and the RFC 2369 / RFC 8058 headers for an optional notification. */
  unsubscribe(userId: string, kind: OptionalKind): { url: string; headers: Record<string, string> } {
    const token = this.unsubscribeToken(userId, kind);
    return { url: this.link('/unsubscribe', { token }), headers: this.listUnsubscribeHeaders('/api/mail/unsubscribe', { token }) };
  }

  /**
   * RFC 2369 / RFC 8058 headers pointing at `path`, an API route that unsubscribes on a form POST of
   * `List-Unsubscribe=One-Click` (no session, the signed token in the query).
   */
  listUnsubscribeHeaders(path: string, query: Record<string, string>): Record<string, string> {
    return { 'List-Unsubscribe': `<${this.link(path, query)}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
  }

  /**
   * One attempt at one message (the `mail.send` job). The claim is a single conditional UPDATE: only a
   * pending message, or one whose previous claim's lease ran out, is taken, so a message is handed to
   * the SMTP server by one worker at a time.
   */
  async deliver(messageId: string): Promise<void> {
    const db = this.deps.database.db;
    if (!/^[0-9a-f-]{36}$/i.test(messageId)) return;
    const claimed = await db.execute<{ id: string }>(sql`
      UPDATE mail_messages
      SET status = 'sending', attempts = attempts + 1, lease_until = now() + make_interval(secs => ${LEASE_SECONDS}),
          last_attempt_at = now()
      WHERE id = ${messageId}
        AND (status = 'pending' OR (status = 'sending' AND lease_until < now()))
      RETURNING id`);
    if (claimed.rows.length === 0) return;
    const [message] = await db.select().from(mailMessages).where(eq(mailMessages.id, messageId)).limit(1);
    if (!message) return;
    const log = this.deps.log.child({ mailId: message.id, kind: message.kind, attempt: message.attempts });
    try {
      const result = await this.transport.send({
        id: message.id,
        from: this.deps.config.mail.from,
        to: message.to,
        subject: message.subject,
        text: message.text ?? '',
        html: message.html ?? '',
        headers: message.headers,
      });
      await db
        .update(mailMessages)
        .set({
          status: 'sent',
          sentAt: sql`now()`,
          leaseUntil: null,
          lastError: null,
          providerMessageId: result.messageId.slice(0, 300),
          ...(message.sensitive ? { text: null, html: null } : {}),
        })
        .where(and(eq(mailMessages.id, message.id), eq(mailMessages.status, 'sending')));
      log.info('mail sent');
    } catch (err) {
      await this.recordFailure(message, describeError(err));
      log.warn({ error: describeError(err), final: message.attempts >= this.deps.config.mail.maxAttempts }, 'mail attempt failed');
    }
  }

  private async recordFailure(message: MailMessageRow, error: string): Promise<void> {
    const { maxAttempts, retryDelaySeconds } = this.deps.config.mail;
    const final = message.attempts >= maxAttempts;
    const delay = Math.min(retryDelaySeconds * 2 ** (message.attempts - 1), 6 * 3600);
    await this.deps.database.db.transaction(async (tx) => {
      await tx
        .update(mailMessages)
        .set({
          status: final ? 'failed' : 'pending',
          leaseUntil: null,
          lastError: error,
          nextAttemptAt: sql`now() + make_interval(secs => ${delay})`,
          ...(final && message.sensitive ? { text: null, html: null } : {}),
        })
        .where(and(eq(mailMessages.id, message.id), eq(mailMessages.status, 'sending')));
      if (!final) {
        await this.deps.jobs.send(
          SEND_JOB,
          { messageId: message.id },
          { tx, ...(delay >= 1 ? { startAfterSeconds: Math.round(delay) } : {}) },
        );
      }
    });
  }

  /** Re-queues messages whose job was lost (a crash between claim and result, a queue wiped by hand). */
  async sweep(): Promise<void> {
    const db = this.deps.database.db;
    const stuck = await db.execute<{ id: string }>(sql`
      SELECT id FROM mail_messages
      WHERE (status = 'pending' AND next_attempt_at < now() - interval '2 minutes')
         OR (status = 'sending' AND lease_until < now())
      ORDER BY created_at LIMIT 100`);
    for (const row of stuck.rows) await this.deps.jobs.send(SEND_JOB, { messageId: row.id });
  }

  /** Staff view of the outbox (bodies left out: they may hold one-time links). */
  async list(filter: { status?: MailStatus | undefined; page: number; pageSize: number }) {
    const db = this.deps.database.db;
    const where = filter.status ? eq(mailMessages.status, filter.status) : undefined;
    const rows = await db
      .select({
        id: mailMessages.id,
        userId: mailMessages.userId,
        kind: mailMessages.kind,
        to: mailMessages.to,
        subject: mailMessages.subject,
        status: mailMessages.status,
        attempts: mailMessages.attempts,
        lastError: mailMessages.lastError,
        createdAt: mailMessages.createdAt,
        lastAttemptAt: mailMessages.lastAttemptAt,
        sentAt: mailMessages.sentAt,
      })
      .from(mailMessages)
      .where(where)
      .orderBy(desc(mailMessages.createdAt), desc(mailMessages.id))
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize);
    const [total] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(mailMessages)
      .where(where);
    return {
      messages: rows.map((r) => ({
        _id: r.id,
        userId: r.userId,
        kind: r.kind,
        to: r.to,
        subject: r.subject,
        status: r.status,
        attempts: r.attempts,
        lastError: r.lastError,
        createdAt: r.createdAt.toISOString(),
        lastAttemptAt: r.lastAttemptAt?.toISOString() ?? null,
        sentAt: r.sentAt?.toISOString() ?? null,
      })),
      page: filter.page,
      pageSize: filter.pageSize,
      total: total?.n ?? 0,
    };
  }

  /** Sends a failed message again (staff action). */
  async retry(messageId: string): Promise<boolean> {
    return this.deps.database.db.transaction(async (tx) => {
      const [row] = await tx
        .update(mailMessages)
        .set({ status: 'pending', attempts: 0, lastError: null, nextAttemptAt: sql`now()` })
        .where(and(eq(mailMessages.id, messageId), eq(mailMessages.status, 'failed'), sql`${mailMessages.text} IS NOT NULL`))
        .returning({ id: mailMessages.id });
      if (!row) return false;
      await this.deps.jobs.send(SEND_JOB, { messageId }, { tx });
      return true;
    });
  }

  close(): void {
    this.transport.close();
  }
}

/**
 * An error as the log may show it: its name and database code only. A failed query's message lists the
 * query's parameters, which for an outbox insert include the mail and its one-time link.
 */
export function safeError(err: unknown): { name: string; code: string | undefined } {
  const e = err as { name?: string; code?: string; cause?: { code?: string } };
  return { name: e?.name ?? 'Error', code: e?.code ?? e?.cause?.code };
}

/** What the log and the staff view say about a failure: the SMTP answer, never the message itself. */
function describeError(err: unknown): string {
  const e = err as { code?: string; responseCode?: number; response?: string; message?: string };
  const parts = [e.code, e.responseCode ? String(e.responseCode) : undefined, (e.response ?? e.message ?? 'unknown error').slice(0, 300)];
  return parts.filter(Boolean).join(' ');
}
