import { count, desc, sql, and, eq, inArray, type SQL } from 'drizzle-orm';
import type { AuditEntry } from '#shared/schemas/admin.js';
import type { DbOrTx } from '#server/db/client.js';
import { users } from '#server/modules/users/users.tables.js';
import { auditChanges, auditSentence, fallbackTargetLabel } from './audit-text.js';
import { auditLog, type AuditRow } from './audit.tables.js';

export interface AuditInput {
  actor: { id: string; username: string };
  action: string;
  targetType: string;
  targetId: string | null;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
}

/** Records a staff action; callers pass their transaction so the action and its record commit together. */
export async function recordAudit(db: DbOrTx, input: AuditInput): Promise<void> {
  await db.insert(auditLog).values({
    actorId: input.actor.id,
    actorName: input.actor.username,
    action: input.action,
    targetType: input.targetType,
    targetId: input.targetId,
    before: input.before ?? null,
    after: input.after ?? null,
    reason: input.reason ?? null,
  });
}

interface Person {
  username: string;
  email: string;
  role: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The accounts an entry names: its actor, a user target, an assignee before or after. */
function idsIn(row: AuditRow): string[] {
  const ids: string[] = [];
  if (row.actorId) ids.push(row.actorId);
  if (row.targetType === 'user' && row.targetId && UUID.test(row.targetId)) ids.push(row.targetId);
  for (const side of [row.before, row.after]) {
    const assignee = side && typeof side === 'object' ? (side as Record<string, unknown>).assignedTo : null;
    if (typeof assignee === 'string' && UUID.test(assignee)) ids.push(assignee);
  }
  return ids;
}

async function peopleFor(db: DbOrTx, rows: AuditRow[]): Promise<Map<string, Person>> {
  const ids = [...new Set(rows.flatMap(idsIn))];
  if (ids.length === 0) return new Map();
  const found = await db
    .select({ id: users.id, username: users.username, email: users.email, role: users.role })
    .from(users)
    .where(inArray(users.id, ids));
  return new Map(found.map((p) => [p.id, p]));
}

/** One entry as the console shows it: names instead of ids, a sentence and the changed fields. */
export function toAuditDto(row: AuditRow, people: ReadonlyMap<string, Person> = new Map()): AuditEntry {
  const actor = row.actorId ? people.get(row.actorId) : undefined;
  const actorLabel = actor ? `${row.actorName} (${actor.role})` : row.actorName;
  const targetUser = row.targetType === 'user' && row.targetId ? people.get(row.targetId) : undefined;
  const targetLabel = targetUser ? targetUser.email : fallbackTargetLabel(row.targetType, row.targetId);
  const names = new Map([...people].map(([id, p]) => [id, p.username]));
  return {
    _id: row.id,
    actor: { _id: row.actorId, username: row.actorName, role: actor?.role ?? null },
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    targetLabel,
    summary: auditSentence({ action: row.action, actorLabel, targetLabel, before: row.before, after: row.after }),
    changes: auditChanges(row.before, row.after, names),
    before: row.before,
    after: row.after,
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listAudit(
  db: DbOrTx,
  query: { search?: string | undefined; action?: string | undefined; targetId?: string | undefined; page: number; pageSize: number },
): Promise<{ entries: AuditEntry[]; total: number }> {
  const conditions: Array<SQL | undefined> = [
    query.action ? eq(auditLog.action, query.action) : undefined,
    query.targetId ? eq(auditLog.targetId, query.targetId) : undefined,
  ];
  if (query.search) {
    const pattern = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(
      sql`(${auditLog.actorName} ILIKE ${pattern} OR ${auditLog.action} ILIKE ${pattern} OR ${auditLog.reason} ILIKE ${pattern} OR ${auditLog.targetId} ILIKE ${pattern} OR ${auditLog.after}::text ILIKE ${pattern} OR ${auditLog.targetId} IN (SELECT ${users.id}::text FROM ${users} WHERE ${users.email} ILIKE ${pattern} OR ${users.username} ILIKE ${pattern}))`,
    );
  }
  const where = and(...conditions);
  const rows = await db
    .select()
    .from(auditLog)
    .where(where)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const [total] = await db.select({ n: count() }).from(auditLog).where(where);
  const people = await peopleFor(db, rows);
  return { entries: rows.map((row) => toAuditDto(row, people)), total: total?.n ?? 0 };
}
