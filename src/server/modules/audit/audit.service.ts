import { count, desc, sql, and, eq, type SQL } from 'drizzle-orm';
import type { AuditEntry } from '#shared/schemas/admin.js';
import type { DbOrTx } from '#server/db/client.js';
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

export function toAuditDto(row: AuditRow): AuditEntry {
  return {
    _id: row.id,
    actor: { _id: row.actorId, username: row.actorName },
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
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
      sql`(${auditLog.actorName} ILIKE ${pattern} OR ${auditLog.action} ILIKE ${pattern} OR ${auditLog.reason} ILIKE ${pattern} OR ${auditLog.targetId} ILIKE ${pattern} OR ${auditLog.after}::text ILIKE ${pattern})`,
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
  return { entries: rows.map(toAuditDto), total: total?.n ?? 0 };
}
