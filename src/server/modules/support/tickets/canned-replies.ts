import { asc, count, eq, sql } from 'drizzle-orm';
import type { CannedReply, CannedReplyBody } from '#shared/schemas/tickets.js';
import type { Db, DbOrTx } from '#server/db/client.js';
import { notFound, unprocessable } from '#server/errors.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { parseId, staffActor, type StaffMember } from './ticket-rows.js';
import { ticketCannedReplies } from './tickets.tables.js';

/** Canned replies: the staff's saved answers, listed, added, changed and deleted (each change audited). */

const CANNED_REPLIES_MAX = 100;

function toCannedDto(row: typeof ticketCannedReplies.$inferSelect): CannedReply {
  return { _id: row.id, title: row.title, body: row.body, updatedAt: row.updatedAt.toISOString() };
}

async function findCanned(db: DbOrTx, id: string) {
  const cannedId = parseId(id);
  const [row] = cannedId ? await db.select().from(ticketCannedReplies).where(eq(ticketCannedReplies.id, cannedId)).limit(1) : [];
  if (!row) throw notFound('Canned reply not found');
  return row;
}

export async function cannedReplies(db: Db): Promise<CannedReply[]> {
  const rows = await db.select().from(ticketCannedReplies).orderBy(asc(ticketCannedReplies.title), asc(ticketCannedReplies.id));
  return rows.map(toCannedDto);
}

export async function saveCannedReply(db: Db, staff: StaffMember, id: string | null, body: CannedReplyBody): Promise<CannedReply> {
  return db.transaction(async (tx) => {
    let before: unknown = null;
    let row;
    if (id === null) {
      const [count_] = await tx.select({ n: count() }).from(ticketCannedReplies);
      if (Number(count_?.n ?? 0) >= CANNED_REPLIES_MAX)
        throw unprocessable(`At most ${CANNED_REPLIES_MAX} canned replies`, 'TOO_MANY_CANNED_REPLIES', { max: CANNED_REPLIES_MAX });
      [row] = await tx.insert(ticketCannedReplies).values({ title: body.title, body: body.body, createdBy: staff.userId }).returning();
    } else {
      const existing = await findCanned(tx, id);
      before = { title: existing.title, body: existing.body };
      [row] = await tx
        .update(ticketCannedReplies)
        .set({ title: body.title, body: body.body, updatedAt: sql`now()` })
        .where(eq(ticketCannedReplies.id, existing.id))
        .returning();
    }
    await recordAudit(tx, {
      actor: await staffActor(tx, staff),
      action: id === null ? 'canned_reply.created' : 'canned_reply.updated',
      targetType: 'canned_reply',
      targetId: row!.id,
      before,
      after: { title: row!.title, body: row!.body },
    });
    return toCannedDto(row!);
  });
}

export async function deleteCannedReply(db: Db, staff: StaffMember, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const existing = await findCanned(tx, id);
    await tx.delete(ticketCannedReplies).where(eq(ticketCannedReplies.id, existing.id));
    await recordAudit(tx, {
      actor: await staffActor(tx, staff),
      action: 'canned_reply.deleted',
      targetType: 'canned_reply',
      targetId: existing.id,
      before: { title: existing.title, body: existing.body },
    });
  });
}
