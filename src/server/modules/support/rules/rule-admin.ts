import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { RULES_MAX, type Rule, type RuleAction, type RuleInput, type RuleRun } from '#shared/schemas/support-rules.js';
import type { Db, Tx } from '#server/db/client.js';
import { unprocessable } from '#server/errors.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { ticketCannedReplies, tickets } from '../tickets/tickets.tables.js';
import { users } from '#server/modules/users/users.tables.js';
import { actorOf, findRule, ruleAudit, toDto } from './support-rules-rows.js';
import { supportRuleRuns, supportRules, type SupportRuleRow } from './support-rules.tables.js';

/** The rules staff read and admins keep, and the run log; every change writes its audit entry in its transaction. */

export async function listRules(db: Db): Promise<Rule[]> {
  const rows = await db.select().from(supportRules).orderBy(asc(supportRules.createdAt), asc(supportRules.id));
  return rows.map(toDto);
}

export async function saveRule(db: Db, staffId: string, id: string | null, body: RuleInput): Promise<Rule> {
  return db.transaction(async (tx) => {
    await checkActions(tx, body.actions);
    let before: SupportRuleRow | null = null;
    let row: SupportRuleRow | undefined;
    if (id === null) {
      const [n] = await tx.select({ n: count() }).from(supportRules);
      if (Number(n?.n ?? 0) >= RULES_MAX) throw unprocessable(`At most ${RULES_MAX} rules`, 'TOO_MANY_RULES', { max: RULES_MAX });
      [row] = await tx
        .insert(supportRules)
        .values({
          name: body.name,
          enabled: body.enabled,
          trigger: body.trigger,
          conditions: body.conditions,
          actions: body.actions,
          createdBy: staffId,
        })
        .returning();
    } else {
      before = await findRule(tx, id);
      [row] = await tx
        .update(supportRules)
        .set({
          name: body.name,
          enabled: body.enabled,
          trigger: body.trigger,
          conditions: body.conditions,
          actions: body.actions,
          updatedAt: sql`now()`,
        })
        .where(eq(supportRules.id, before.id))
        .returning();
    }
    await recordAudit(tx, {
      actor: await actorOf(tx, staffId),
      action: id === null ? 'support_rule.created' : 'support_rule.updated',
      targetType: 'support_rule',
      targetId: row!.id,
      before: before ? ruleAudit(before) : null,
      after: ruleAudit(row!),
    });
    return toDto(row!);
  });
}

export async function setRuleEnabled(db: Db, staffId: string, id: string, enabled: boolean): Promise<Rule> {
  return db.transaction(async (tx) => {
    const before = await findRule(tx, id);
    const [row] = await tx
      .update(supportRules)
      .set({ enabled, updatedAt: sql`now()` })
      .where(eq(supportRules.id, before.id))
      .returning();
    await recordAudit(tx, {
      actor: await actorOf(tx, staffId),
      action: enabled ? 'support_rule.enabled' : 'support_rule.disabled',
      targetType: 'support_rule',
      targetId: before.id,
      before: { name: before.name, enabled: before.enabled },
      after: { name: row!.name, enabled: row!.enabled },
    });
    return toDto(row!);
  });
}

export async function removeRule(db: Db, staffId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await findRule(tx, id);
    await tx.delete(supportRules).where(eq(supportRules.id, before.id));
    await recordAudit(tx, {
      actor: await actorOf(tx, staffId),
      action: 'support_rule.deleted',
      targetType: 'support_rule',
      targetId: before.id,
      before: ruleAudit(before),
    });
  });
}

export async function ruleRuns(db: Db, limit = 50): Promise<RuleRun[]> {
  const rows = await db
    .select({ run: supportRuleRuns, number: tickets.number })
    .from(supportRuleRuns)
    .leftJoin(tickets, eq(tickets.id, supportRuleRuns.ticketId))
    .orderBy(desc(supportRuleRuns.createdAt), desc(supportRuleRuns.id))
    .limit(limit);
  return rows.map(({ run, number }) => ({
    _id: run.id,
    ruleId: run.ruleId,
    ruleName: run.ruleName,
    ticketId: run.ticketId,
    ticketNumber: number,
    event: run.eventKey.split(':')[0] ?? run.eventKey,
    actions: run.actions,
    createdAt: run.createdAt.toISOString(),
  }));
}

/** A rule may name only an active staff member and an existing canned reply. */
async function checkActions(tx: Tx, actions: RuleAction[]): Promise<void> {
  const assignees = actions.flatMap((a) => (a.type === 'assign' ? [a.assigneeId] : []));
  if (assignees.length) {
    const staff = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.id, assignees), inArray(users.role, ['support', 'admin']), isNull(users.disabledAt)));
    if (staff.length !== new Set(assignees).size)
      throw unprocessable('Tickets can be assigned only to an active support or admin account', 'NOT_STAFF');
  }
  const canned = actions.flatMap((a) => (a.type === 'canned_reply' ? [a.cannedReplyId] : []));
  if (canned.length) {
    const found = await tx.select({ id: ticketCannedReplies.id }).from(ticketCannedReplies).where(inArray(ticketCannedReplies.id, canned));
    if (found.length !== new Set(canned).size) throw unprocessable('That canned reply does not exist', 'CANNED_REPLY_NOT_FOUND');
  }
}
