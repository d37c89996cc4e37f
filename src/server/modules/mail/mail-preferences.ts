import { sql } from 'drizzle-orm';
import type { MailPreferences } from '#shared/schemas/mail.js';
import type { DbOrTx } from '#server/db/client.js';
import type { OptionalKind } from './mail.service.js';
import { mailPreferences } from './mail.tables.js';

/** Which optional notifications the account receives (all of them until it says otherwise). */
export async function readMailPreferences(db: DbOrTx, userId: string): Promise<MailPreferences> {
  const [row] = await db
    .select()
    .from(mailPreferences)
    .where(sql`${mailPreferences.userId} = ${userId}`)
    .limit(1);
  return { paymentCredited: row?.paymentCredited ?? true, ticketReply: row?.ticketReply ?? true, orderUpdates: row?.orderUpdates ?? true };
}

/** Changes some of the account's choices; answers all of them as they now stand. */
export async function updateMailPreferences(db: DbOrTx, userId: string, change: Partial<MailPreferences>): Promise<MailPreferences> {
  const next = { ...(await readMailPreferences(db, userId)), ...change };
  await db
    .insert(mailPreferences)
    .values({ userId, ...next })
    .onConflictDoUpdate({ target: mailPreferences.userId, set: { ...next, updatedAt: sql`now()` } });
  return next;
}

/** Turns one kind off (the unsubscribe link). False when the account no longer exists. */
export async function turnOffMailKind(db: DbOrTx, userId: string, kind: OptionalKind): Promise<boolean> {
  const column = {
    payment_credited: { paymentCredited: false },
    ticket_reply: { ticketReply: false },
    order_updates: { orderUpdates: false },
  }[kind];
  const inserted = await db
    .insert(mailPreferences)
    .values({ userId, ...column })
    .onConflictDoUpdate({ target: mailPreferences.userId, set: { ...column, updatedAt: sql`now()` } })
    .returning({ userId: mailPreferences.userId })
    .catch((err: { code?: string; cause?: { code?: string } }) => {
      // The account was deleted: nothing left to send to.
      if ((err.code ?? err.cause?.code) === '23503') return [];
      throw err;
    });
  return inserted.length > 0;
}
