import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '#server/db/client.js';
import { AppError } from '#server/errors.js';
import type { MailService } from '#server/modules/mail/mail.service.js';
import type { Locale } from '#shared/constants.js';
import { translatorFor, type Translator } from '#server/i18n/translator.js';
import { statusConfirmMail, statusNoticeMail, type StatusNoticeText } from '#server/modules/mail/templates/status-subscription.js';
import { statusSubscribers } from './status.tables.js';

type Purpose = 'confirm' | 'unsubscribe';

/**
 * A confirmation link works this many days after the address was last submitted (docs/decisions/0194);
 * unconfirmed addresses older than that are deleted by the hourly prune job.
 */
export const CONFIRMATION_VALID_DAYS = 7;
const confirmationCutoff = () => sql`now() - make_interval(days => ${CONFIRMATION_VALID_DAYS})`;

export const CONFIRMATION_EXPIRED_MESSAGE = 'This link has expired. Subscribe again to get a new one.';

/** Deletes addresses never confirmed within the confirmation window (the prune job calls it). */
export async function pruneUnconfirmedSubscribers(db: DbOrTx): Promise<number> {
  const deleted = await db
    .delete(statusSubscribers)
    .where(and(isNull(statusSubscribers.confirmedAt), lt(statusSubscribers.createdAt, confirmationCutoff())))
    .returning({ id: statusSubscribers.id });
  return deleted.length;
}

/** A status notice, written in the language of the translator it is given (each subscriber's, docs/decisions/0328). */
export type StatusNotice = (tr: Translator) => StatusNoticeText;

/**
 * Email subscriptions to the status page, without an account (docs/decisions/0186): double opt-in, a
 * notice per new incident, incident update and new maintenance to confirmed addresses, and an
 * unsubscribe link in each. Links carry `<subscriber id>.<HMAC>` tokens signed with the app secret, as
 * the mail module's unsubscribe tokens are; unsubscribing deletes the address, so its old links die with it.
 */
export class StatusSubscriptions {
  constructor(
    private readonly db: Db,
    private readonly mail: MailService | undefined,
    private readonly secret: Uint8Array,
  ) {}

  private mac(purpose: Purpose, id: string): string {
    return createHmac('sha256', this.secret).update(`status-${purpose}:${id}`).digest('base64url');
  }

  token(purpose: Purpose, id: string): string {
    return `${id}.${this.mac(purpose, id)}`;
  }

  private readToken(purpose: Purpose, token: string): string | null {
    const [id, mac, ...rest] = token.split('.');
    if (!id || !mac || rest.length > 0 || !/^[0-9a-f-]{36}$/.test(id)) return null;
    const expected = Buffer.from(this.mac(purpose, id));
    const given = Buffer.from(mac);
    return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
  }

  /** A page of the status page: `/status`, `/status/confirm?token=`, `/status/unsubscribe?token=`. */
  private link(path = '/status', query: Record<string, string> = {}): string {
    return this.mail ? this.mail.link(path, query) : path;
  }

  /**
   * Records the address and mails the confirmation link unless it is confirmed already. The caller answers
   * the same either way: whether an address is subscribed is never revealed.
   */
  async subscribe(email: string, locale?: Locale): Promise<void> {
    const address = email.trim().toLowerCase();
    await this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(statusSubscribers)
        .values({ email: address, locale: locale ?? null })
        // Subscribing again while unconfirmed restarts the confirmation window (created_at is when the
        // address was last submitted until it is confirmed), so the new mail's link works.
        .onConflictDoUpdate({
          target: statusSubscribers.email,
          set: {
            email: sql`excluded.email`,
            createdAt: sql`CASE WHEN ${statusSubscribers.confirmedAt} IS NULL THEN now() ELSE ${statusSubscribers.createdAt} END`,
            // The language of the latest request until the address is confirmed; after that it stays.
            locale: sql`CASE WHEN ${statusSubscribers.confirmedAt} IS NULL THEN excluded.locale ELSE ${statusSubscribers.locale} END`,
          },
        })
        .returning();
      if (!row || row.confirmedAt || !this.mail?.started) return;
      await this.mail.queueSafely(tx, {
        userId: null,
        kind: 'status_confirm',
        to: address,
        sensitive: true,
        mail: statusConfirmMail(translatorFor(row.locale), {
          confirmUrl: this.link('/status/confirm', { token: this.token('confirm', row.id) }),
          statusUrl: this.link(),
          validDays: CONFIRMATION_VALID_DAYS,
        }),
      });
    });
  }

  /**
   * Confirms the address of a genuine link if it is confirmed already or was submitted less than
   * CONFIRMATION_VALID_DAYS ago: one conditional UPDATE, so a link cannot slip through as it expires.
   * A genuine link whose address is too old, or gone (cleaned up, or unsubscribed), has expired.
   */
  async confirm(token: string): Promise<void> {
    const id = this.readToken('confirm', token);
    if (!id) throw new AppError('TOKEN_INVALID', 'This confirmation link is not valid (any more). Subscribe again on the status page.');
    const [row] = await this.db
      .update(statusSubscribers)
      .set({ confirmedAt: sql`coalesce(${statusSubscribers.confirmedAt}, now())` })
      .where(
        and(
          eq(statusSubscribers.id, id),
          or(isNotNull(statusSubscribers.confirmedAt), gt(statusSubscribers.createdAt, confirmationCutoff())),
        ),
      )
      .returning({ id: statusSubscribers.id });
    if (!row) throw new AppError('TOKEN_EXPIRED', CONFIRMATION_EXPIRED_MESSAGE);
  }

  /** Deletes the address; a valid link used twice still answers success. */
  async unsubscribe(token: string): Promise<void> {
    const id = this.readToken('unsubscribe', token);
    if (!id) throw new AppError('TOKEN_INVALID', 'This unsubscribe link is not valid.');
    await this.db.delete(statusSubscribers).where(eq(statusSubscribers.id, id));
  }

  /** Queues `notice` to every confirmed address, in the caller's transaction (nothing is sent if it rolls back). */
  async notify(tx: DbOrTx, notice: StatusNotice): Promise<number> {
    if (!this.mail?.started) return 0;
    const rows = await tx.select().from(statusSubscribers).where(isNotNull(statusSubscribers.confirmedAt));
    // Each address in the language it subscribed in; the words are made once per language.
    const texts = new Map<string, StatusNoticeText>();
    for (const row of rows) {
      const tr = translatorFor(row.locale);
      let text = texts.get(tr.locale);
      if (!text) texts.set(tr.locale, (text = notice(tr)));
      const token = this.token('unsubscribe', row.id);
      const unsubscribeUrl = this.link('/status/unsubscribe', { token });
      await this.mail.queueSafely(tx, {
        userId: null,
        kind: 'status_notice',
        to: row.email,
        // RFC 8058 one-click: the mail client POSTs to the API; the link in the text opens the page.
        headers: this.mail.listUnsubscribeHeaders('/api/status/subscriptions/unsubscribe', { token }),
        mail: statusNoticeMail(tr, { ...text, statusUrl: this.link(), unsubscribeUrl }),
      });
    }
    return rows.length;
  }
}
