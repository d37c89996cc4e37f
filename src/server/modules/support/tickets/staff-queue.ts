import { and, asc, count, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { Ticket, TicketListResponse, TicketRatingStats } from '#shared/schemas/tickets.js';
import type { SlaQueueFilter } from '#shared/schemas/support-sla.js';
import type { Db } from '#server/db/client.js';
import { users } from '#server/modules/users/users.tables.js';
import { findAny, ticketPage, withMessages, type StaffMember, type TicketDeps } from './ticket-rows.js';
import { tickets } from './tickets.tables.js';

/** What staff read: the queue, any one ticket, the ratings and the accounts tickets can be assigned to. */

/** Escapes LIKE wildcards so a search for "100%" means exactly that. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listAll(
  deps: Pick<TicketDeps, 'db' | 'slaCondition'>,
  query: {
    status?: string | undefined;
    priority?: string | undefined;
    search?: string | undefined;
    assigned: 'me' | 'unassigned' | 'any';
    userId?: string | undefined;
    sla?: SlaQueueFilter | undefined;
    page: number;
    pageSize: number;
  },
  staff: StaffMember,
): Promise<TicketListResponse> {
  const conditions: Array<SQL | undefined> = [
    query.status ? eq(tickets.status, query.status) : undefined,
    query.priority ? eq(tickets.priority, query.priority) : undefined,
    query.assigned === 'me' ? eq(tickets.assignedTo, staff.userId) : undefined,
    query.assigned === 'unassigned' ? isNull(tickets.assignedTo) : undefined,
    query.userId ? eq(tickets.userId, query.userId) : undefined,
    // SLA "breached" / "due soon" (the SLA part, docs/decisions/0293).
    query.sla && deps.slaCondition ? await deps.slaCondition(deps.db, query.sla) : undefined,
  ];
  if (query.search) {
    const pattern = likePattern(query.search);
    const asNumber = /^\d{1,9}$/.test(query.search) ? Number(query.search) : null;
    conditions.push(
      sql`(${tickets.subject} ILIKE ${pattern} OR ${tickets.userId} IN (SELECT ${users.id} FROM ${users} WHERE ${users.username} ILIKE ${pattern})${asNumber !== null ? sql` OR ${tickets.number} = ${asNumber}` : sql``})`,
    );
  }
  return ticketPage(deps.db, and(...conditions), query.page, query.pageSize);
}

export async function getAny(db: Db, id: string): Promise<Ticket> {
  return withMessages(db, await findAny(db, id), 'staff');
}

/** Average rating over every rated ticket, and per assigned staff member. */
export async function ratingStats(db: Db): Promise<TicketRatingStats> {
  const [overall] = await db
    .select({ average: sql<string | null>`avg(${tickets.rating})`, count: count(tickets.rating) })
    .from(tickets)
    .where(isNotNull(tickets.rating));
  const perStaff = await db
    .select({ id: users.id, username: users.username, average: sql<string | null>`avg(${tickets.rating})`, count: count(tickets.rating) })
    .from(tickets)
    .innerJoin(users, eq(users.id, tickets.assignedTo))
    .where(isNotNull(tickets.rating))
    .groupBy(users.id, users.username)
    .orderBy(asc(users.username));
  const round = (v: string | null) => (v === null ? null : Math.round(Number(v) * 100) / 100);
  return {
    overall: { average: round(overall?.average ?? null), count: Number(overall?.count ?? 0) },
    byStaff: perStaff.map((r) => ({ _id: r.id, username: r.username, average: round(r.average), count: Number(r.count) })),
  };
}

export async function staffMembers(db: Db): Promise<Array<{ _id: string; username: string; role: 'support' | 'admin' }>> {
  const rows = await db
    .select({ id: users.id, username: users.username, role: users.role })
    .from(users)
    .where(and(inArray(users.role, ['support', 'admin']), isNull(users.disabledAt)))
    .orderBy(asc(users.username));
  return rows.map((r) => ({ _id: r.id, username: r.username, role: r.role as 'support' | 'admin' }));
}
