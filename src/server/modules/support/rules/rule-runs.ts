import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { TAGS_MAX, type RuleAction, type RuleCondition, type RuleTriggerSpec } from '#shared/schemas/support-rules.js';
import type { Tx } from '#server/db/client.js';
import { auditLog } from '#server/modules/audit/audit.tables.js';
import { businessMsBetween } from '../hours/business-hours.js';
import { loadBusinessCalendar } from '../hours/support-calendar.js';
import { addMessage, addVisibleAnswer } from '../tickets/tickets.service.js';
import { ticketCannedReplies, ticketMessages, tickets, type TicketRow } from '../tickets/tickets.tables.js';
import { users } from '#server/modules/users/users.tables.js';
import { AUTOMATION, type RuleEvent, type SupportRulesDeps } from './support-rules-rows.js';
import { supportRuleRuns, supportRules } from './support-rules.tables.js';

/** Execution: which rules answer an event, running their actions once per event, and the no-reply sweep. */

/** Whether `rule` answers `event` (its trigger), before conditions. */
export function triggerMatches(trigger: RuleTriggerSpec, event: RuleEvent): boolean {
  if (trigger.type !== event.kind) return false;
  if (trigger.type === 'status_changed' && trigger.to && trigger.to !== event.status) return false;
  return true;
}

/** Whether every condition holds for the ticket as it is now. */
export function conditionsHold(conditions: RuleCondition[], ticket: Pick<TicketRow, 'subject' | 'priority' | 'userId' | 'tags'>): boolean {
  return conditions.every((c) => {
    switch (c.type) {
      case 'subject_contains':
        return ticket.subject.toLowerCase().includes(c.text.toLowerCase());
      case 'priority_in':
        return (c.priorities as string[]).includes(ticket.priority);
      case 'requester_kind':
        return c.kind === (ticket.userId ? 'user' : 'guest');
      case 'has_tag':
        return ticket.tags.includes(c.tag);
      case 'lacks_tag':
        return !ticket.tags.includes(c.tag);
    }
  });
}

/**
 * Runs the enabled rules that answer `event` on its ticket, in the order they were made, in one
 * transaction with the ticket locked. A change made by a rule never triggers rules (its events carry
 * origin 'rule' and are dropped), and each (rule, ticket, event) runs at most once: the run row is
 * written first, and a second delivery of the same event finds it and does nothing.
 */
export async function runEvent(deps: SupportRulesDeps, event: RuleEvent): Promise<number> {
  if (event.origin === 'rule') return 0;
  const candidates = (
    await deps.db
      .select()
      .from(supportRules)
      .where(eq(supportRules.enabled, true))
      .orderBy(asc(supportRules.createdAt), asc(supportRules.id))
  ).filter((r) => triggerMatches(r.trigger, event) && (event.ruleId === undefined || r.id === event.ruleId));
  if (candidates.length === 0) return 0;
  return deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(tickets).where(eq(tickets.id, event.ticketId)).for('update');
    if (!locked || locked.mergedInto) return 0;
    let ticket = locked;
    let ran = 0;
    for (const rule of candidates) {
      if (!conditionsHold(rule.conditions, ticket)) continue;
      const [run] = await tx
        .insert(supportRuleRuns)
        .values({ ruleId: rule.id, ruleName: rule.name, ticketId: ticket.id, eventKey: event.key })
        .onConflictDoNothing()
        .returning({ id: supportRuleRuns.id });
      if (!run) continue;
      const before = ticket;
      const taken: string[] = [];
      for (const action of rule.actions) {
        const result = await apply(deps, tx, ticket, action);
        ticket = result.ticket;
        taken.push(result.summary);
      }
      await tx.update(supportRuleRuns).set({ actions: taken }).where(eq(supportRuleRuns.id, run.id));
      await tx.insert(auditLog).values({
        actorId: null,
        actorName: AUTOMATION,
        action: 'support_rule.ran',
        targetType: 'ticket',
        targetId: ticket.id,
        before: { status: before.status, priority: before.priority, assignedTo: before.assignedTo, tags: before.tags },
        after: {
          rule: { id: rule.id, name: rule.name },
          event: event.key,
          origin: event.origin,
          actions: taken,
          status: ticket.status,
          priority: ticket.priority,
          assignedTo: ticket.assignedTo,
          tags: ticket.tags,
        },
      });
      ran++;
    }
    return ran;
  });
}

/** One action on the locked ticket; answers the ticket after it and what was done, in words. */
async function apply(
  deps: SupportRulesDeps,
  tx: Tx,
  ticket: TicketRow,
  action: RuleAction,
): Promise<{ ticket: TicketRow; summary: string }> {
  const update = async (set: Partial<typeof tickets.$inferInsert>) => {
    const [row] = await tx
      .update(tickets)
      .set({ ...set, updatedAt: sql`now()` })
      .where(eq(tickets.id, ticket.id))
      .returning();
    return row!;
  };
  switch (action.type) {
    case 'assign': {
      const [staff] = await tx
        .select({ id: users.id, username: users.username })
        .from(users)
        .where(and(eq(users.id, action.assigneeId), inArray(users.role, ['support', 'admin']), isNull(users.disabledAt)));
      // Someone who left the team since the rule was written: the ticket stays as it is.
      if (!staff) return { ticket, summary: 'assign skipped: not an active staff member' };
      return { ticket: await update({ assignedTo: staff.id }), summary: `assigned to ${staff.username}` };
    }
    case 'set_priority':
      return { ticket: await update({ priority: action.priority }), summary: `priority ${action.priority}` };
    case 'add_tag': {
      if (ticket.tags.includes(action.tag)) return { ticket, summary: `tag ${action.tag} (already there)` };
      if (ticket.tags.length >= TAGS_MAX) return { ticket, summary: `tag ${action.tag} skipped: ${TAGS_MAX} tags already` };
      return { ticket: await update({ tags: [...ticket.tags, action.tag] }), summary: `tag ${action.tag}` };
    }
    case 'internal_note': {
      await addMessage(tx, ticket, 'staff', null, action.body, ticket.status, 'internal');
      return { ticket, summary: 'internal note' };
    }
    case 'canned_reply': {
      const [canned] = await tx.select().from(ticketCannedReplies).where(eq(ticketCannedReplies.id, action.cannedReplyId));
      if (!canned) return { ticket, summary: 'canned reply skipped: it was deleted' };
      return { ticket: await answer(deps, tx, ticket, canned.body), summary: `canned reply "${canned.title}"` };
    }
    case 'close':
      return { ticket: await update({ status: 'closed' }), summary: 'status closed' };
    case 'set_status':
      return { ticket: await update({ status: action.status }), summary: `status ${action.status}` };
  }
}

/**
 * A visible answer from the desk ("Olympus Support", no staff account), told to the requester as a
 * staff answer is (the tickets part's `addVisibleAnswer`), without taking the ticket.
 */
async function answer(deps: SupportRulesDeps, tx: Tx, ticket: TicketRow, body: string): Promise<TicketRow> {
  return (await addVisibleAnswer(deps, tx, ticket, null, body)).ticket;
}

/**
 * The no-reply trigger: for each enabled "no staff reply for N business hours" rule, the open or
 * pending tickets whose last visible message is the requester's and at least N business hours old
 * run that rule once for that message (event key `no_reply:<message id>`).
 */
export async function sweepNoReply(deps: SupportRulesDeps, now: Date = new Date()): Promise<number> {
  const rules = (await deps.db.select().from(supportRules).where(eq(supportRules.enabled, true))).filter(
    (r) => r.trigger.type === 'no_staff_reply',
  );
  if (rules.length === 0) return 0;
  const calendar = await loadBusinessCalendar(deps.db);
  const minHours = Math.min(...rules.map((r) => (r.trigger.type === 'no_staff_reply' ? r.trigger.hours : Infinity)));
  // Business time never runs faster than the clock: nothing younger than the smallest N can be due.
  const cutoff = new Date(now.getTime() - minHours * 3_600_000);
  const result = await deps.db.execute<{ ticket_id: string; message_id: string; author: string; created_at: string | Date }>(sql`
    SELECT DISTINCT ON (m.ticket_id) m.ticket_id, m.id AS message_id, m.author, m.created_at
    FROM ${ticketMessages} m
    JOIN ${tickets} t ON t.id = m.ticket_id
    WHERE t.status IN ('open', 'pending') AND t.merged_into IS NULL AND m.kind = 'reply'
      AND t.last_message_at <= ${cutoff.toISOString()}::timestamptz
    ORDER BY m.ticket_id, m.created_at DESC, m.id DESC`);
  const waiting = result.rows.filter((r) => r.author === 'requester');
  if (waiting.length === 0) return 0;
  // Runs already made for these messages: a ticket that stays unanswered costs one read a minute, not a transaction.
  const done = new Set(
    (
      await deps.db
        .select({ ruleId: supportRuleRuns.ruleId, key: supportRuleRuns.eventKey })
        .from(supportRuleRuns)
        .where(
          inArray(
            supportRuleRuns.eventKey,
            waiting.map((r) => `no_reply:${r.message_id}`),
          ),
        )
    ).map((r) => `${r.ruleId}|${r.key}`),
  );
  let ran = 0;
  for (const row of waiting) {
    const waited = businessMsBetween(calendar, new Date(row.created_at), now);
    for (const rule of rules) {
      if (rule.trigger.type !== 'no_staff_reply' || waited < rule.trigger.hours * 3_600_000) continue;
      if (done.has(`${rule.id}|no_reply:${row.message_id}`)) continue;
      ran += await runEvent(deps, {
        kind: 'no_staff_reply',
        ticketId: row.ticket_id,
        key: `no_reply:${row.message_id}`,
        origin: 'system',
        ruleId: rule.id,
      });
    }
  }
  return ran;
}
