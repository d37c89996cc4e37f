import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  RULES_MAX,
  TAGS_MAX,
  type Rule,
  type RuleAction,
  type RuleCondition,
  type RuleInput,
  type RuleRun,
  type RuleTriggerSpec,
} from '#shared/schemas/support-rules.js';
import type { Db, DbOrTx, Tx } from '#server/db/client.js';
import type { JobQueue } from '#server/jobs/job-queue.js';
import { notFound, unprocessable } from '#server/errors.js';
import { auditLog } from '#server/modules/audit/audit.tables.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import type { MailService } from '#server/modules/mail/mail.service.js';
import { notifyTicketReply } from '#server/modules/mail/notifications.js';
import { ticketLink, ticketReplyNotice } from '#server/modules/notifications/notices.js';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.js';
import { businessMsBetween } from '#server/modules/support-ops/business-hours.js';
import { loadBusinessCalendar } from '#server/modules/support-ops/support-calendar.js';
import { addMessage, type TicketEvent, type TicketEventSink } from '#server/modules/tickets/tickets.service.js';
import { ticketCannedReplies, ticketMessages, tickets, type TicketRow } from '#server/modules/tickets/tickets.tables.js';
import { users } from '#server/modules/users/users.tables.js';
import type { WebhookEvents } from '#server/modules/webhooks/webhook-events.js';
import { supportAutoCloses, supportRuleRuns, supportRules, type SupportRuleRow } from './support-rules.tables.js';

export const RULE_EVENT_JOB = 'support-rules.event';
export const NO_REPLY_SWEEP_JOB = 'support-rules.no-reply-sweep';
export const AUTO_CLOSE_JOB = 'support-rules.auto-close';

/** The event a rule run answers: a ticket event, or the no-reply sweep's (which names its rule). */
export interface RuleEvent {
  kind: TicketEvent['kind'] | 'no_staff_reply';
  ticketId: string;
  key: string;
  origin: TicketEvent['origin'];
  status?: string | undefined;
  /** no_staff_reply: the rule that is due (each rule has its own number of hours). */
  ruleId?: string | undefined;
}

/** What the audit log and the run log call the automation. */
const AUTOMATION = 'automation';

function parseId(id: string): string | null {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id) ? id.toLowerCase() : null;
}

function toDto(row: SupportRuleRow): Rule {
  return {
    _id: row.id,
    name: row.name,
    enabled: row.enabled,
    trigger: row.trigger,
    conditions: row.conditions,
    actions: row.actions,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

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

/** Queues ticket events as rule jobs on the change's transaction; a rule's own changes queue nothing. */
export function ruleEventSink(jobs: JobQueue): TicketEventSink {
  return async (tx, event) => {
    if (event.origin === 'rule') return;
    // A stopped queue would start itself on another connection: inside a transaction that deadlocks.
    if (!jobs.started) {
      process.emitWarning(`rule event ${event.kind} for ticket ${event.ticketId} dropped: the job queue is not running`);
      return;
    }
    await jobs.send(RULE_EVENT_JOB, event, { tx });
  };
}

export interface SupportRulesDeps {
  db: Db;
  webhookEvents: WebhookEvents;
  mail?: MailService | undefined;
  notifications?: NotificationsService | undefined;
  /** Events of changes made outside the ticket service (auto-close). */
  events?: TicketEventSink | undefined;
  log?: FastifyBaseLogger | undefined;
}

/** Rules, tags and auto-close of the support desk (docs/decisions/0294). */
export class SupportRulesService {
  constructor(private readonly deps: SupportRulesDeps) {}

  private get db(): Db {
    return this.deps.db;
  }

  // ---- Tags ---------------------------------------------------------------------------------------

  async setTags(staffId: string, ticketId: string, tags: string[]): Promise<string[]> {
    return this.db.transaction(async (tx) => {
      const id = parseId(ticketId);
      const [ticket] = id ? await tx.select().from(tickets).where(eq(tickets.id, id)).for('update') : [];
      if (!ticket) throw notFound('Ticket not found');
      const [updated] = await tx
        .update(tickets)
        .set({ tags, updatedAt: sql`now()` })
        .where(eq(tickets.id, ticket.id))
        .returning({ tags: tickets.tags });
      await recordAudit(tx, {
        actor: await actorOf(tx, staffId),
        action: 'ticket.tags_changed',
        targetType: 'ticket',
        targetId: ticket.id,
        before: { tags: ticket.tags },
        after: { tags: updated!.tags },
      });
      return updated!.tags;
    });
  }

  // ---- Rules --------------------------------------------------------------------------------------

  async list(): Promise<Rule[]> {
    const rows = await this.db.select().from(supportRules).orderBy(asc(supportRules.createdAt), asc(supportRules.id));
    return rows.map(toDto);
  }

  async save(staffId: string, id: string | null, body: RuleInput): Promise<Rule> {
    return this.db.transaction(async (tx) => {
      await this.checkActions(tx, body.actions);
      let before: SupportRuleRow | null = null;
      let row: SupportRuleRow | undefined;
      if (id === null) {
        const [n] = await tx.select({ n: count() }).from(supportRules);
        if (Number(n?.n ?? 0) >= RULES_MAX) throw unprocessable(`At most ${RULES_MAX} rules`, 'TOO_MANY_RULES');
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

  async setEnabled(staffId: string, id: string, enabled: boolean): Promise<Rule> {
    return this.db.transaction(async (tx) => {
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

  async remove(staffId: string, id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
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

  async runs(limit = 50): Promise<RuleRun[]> {
    const rows = await this.db
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
  private async checkActions(tx: Tx, actions: RuleAction[]): Promise<void> {
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
      const found = await tx
        .select({ id: ticketCannedReplies.id })
        .from(ticketCannedReplies)
        .where(inArray(ticketCannedReplies.id, canned));
      if (found.length !== new Set(canned).size) throw unprocessable('That canned reply does not exist', 'CANNED_REPLY_NOT_FOUND');
    }
  }

  // ---- Execution ----------------------------------------------------------------------------------

  /**
   * Runs the enabled rules that answer `event` on its ticket, in the order they were made, in one
   * transaction with the ticket locked. A change made by a rule never triggers rules (its events carry
   * origin 'rule' and are dropped), and each (rule, ticket, event) runs at most once: the run row is
   * written first, and a second delivery of the same event finds it and does nothing.
   */
  async runEvent(event: RuleEvent): Promise<number> {
    if (event.origin === 'rule') return 0;
    const candidates = (
      await this.db
        .select()
        .from(supportRules)
        .where(eq(supportRules.enabled, true))
        .orderBy(asc(supportRules.createdAt), asc(supportRules.id))
    ).filter((r) => triggerMatches(r.trigger, event) && (event.ruleId === undefined || r.id === event.ruleId));
    if (candidates.length === 0) return 0;
    return this.db.transaction(async (tx) => {
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
          const result = await this.apply(tx, ticket, action);
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
  private async apply(tx: Tx, ticket: TicketRow, action: RuleAction): Promise<{ ticket: TicketRow; summary: string }> {
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
        return { ticket: await this.answer(tx, ticket, canned.body), summary: `canned reply "${canned.title}"` };
      }
      case 'close':
        return { ticket: await update({ status: 'closed' }), summary: 'status closed' };
      case 'set_status':
        return { ticket: await update({ status: action.status }), summary: `status ${action.status}` };
    }
  }

  /**
   * A visible answer from the desk ("Olympus Support", no staff account), told to the requester as a
   * staff answer is (notice, webhook, mail: TicketService.answerWithIdIn), without taking the ticket.
   */
  private async answer(tx: Tx, ticket: TicketRow, body: string): Promise<TicketRow> {
    const next = ticket.status === 'closed' || ticket.status === 'resolved' ? ticket.status : 'pending';
    const added = await addMessage(tx, ticket, 'staff', null, body, next);
    const notice = ticketReplyNotice(ticket);
    if (notice) await this.deps.notifications?.emit(tx, { ...notice, key: `ticket.reply:${added.messageId}` });
    if (ticket.userId) {
      await this.deps.webhookEvents.enqueue(tx, ticket.userId, 'ticket.answered', {
        ticketId: ticket.id,
        number: ticket.number,
        subject: ticket.subject,
        status: next,
      });
      await notifyTicketReply(this.deps.mail, tx, {
        userId: ticket.userId,
        ticketId: ticket.id,
        number: ticket.number,
        subject: ticket.subject,
        message: body,
      });
    }
    return added.ticket;
  }

  /**
   * The no-reply trigger: for each enabled "no staff reply for N business hours" rule, the open or
   * pending tickets whose last visible message is the requester's and at least N business hours old
   * run that rule once for that message (event key `no_reply:<message id>`).
   */
  async sweepNoReply(now: Date = new Date()): Promise<number> {
    const rules = (await this.db.select().from(supportRules).where(eq(supportRules.enabled, true))).filter(
      (r) => r.trigger.type === 'no_staff_reply',
    );
    if (rules.length === 0) return 0;
    const calendar = await loadBusinessCalendar(this.db);
    const minHours = Math.min(...rules.map((r) => (r.trigger.type === 'no_staff_reply' ? r.trigger.hours : Infinity)));
    // Business time never runs faster than the clock: nothing younger than the smallest N can be due.
    const cutoff = new Date(now.getTime() - minHours * 3_600_000);
    const result = await this.db.execute<{ ticket_id: string; message_id: string; author: string; created_at: string | Date }>(sql`
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
        await this.db
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
        ran += await this.runEvent({
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

  // ---- Auto-close ---------------------------------------------------------------------------------

  async autoCloseDays(db: DbOrTx = this.db): Promise<number> {
    const result = await db.execute<{ days: number }>(sql`SELECT auto_close_days AS days FROM support_calendar WHERE id = 1`);
    const row = result.rows[0];
    return row ? Number(row.days) : 7;
  }

  async setAutoCloseDays(staffId: string, days: number): Promise<number> {
    return this.db.transaction(async (tx) => {
      const before = await this.autoCloseDays(tx);
      await tx.execute(
        sql`INSERT INTO support_calendar (id, auto_close_days) VALUES (1, ${days}) ON CONFLICT (id) DO UPDATE SET auto_close_days = ${days}, updated_at = now()`,
      );
      await recordAudit(tx, {
        actor: await actorOf(tx, staffId),
        action: 'support.auto_close_changed',
        targetType: 'support_settings',
        targetId: null,
        before: { autoCloseDays: before },
        after: { autoCloseDays: days },
      });
      return days;
    });
  }

  /**
   * Closes tickets resolved at least N days ago whose requester has not written since (a requester
   * message re-opens a resolved ticket anyway), each once: the ticket is locked and must still be
   * resolved, and its support_auto_closes row is the at-most-once key. The requester then gets the
   * rating request: a notice (in-app, and mail for accounts that keep it on); a guest sees the rating
   * form on the ticket.
   */
  async autoClose(now: Date = new Date()): Promise<number> {
    const days = await this.autoCloseDays();
    if (days === 0) return 0;
    const cutoff = new Date(now.getTime() - days * 86_400_000);
    const due = await this.db
      .select({ id: tickets.id })
      .from(tickets)
      .where(
        and(
          eq(tickets.status, 'resolved'),
          isNull(tickets.mergedInto),
          sql`${tickets.closedAt} <= ${cutoff.toISOString()}::timestamptz`,
          sql`NOT EXISTS (SELECT 1 FROM ${supportAutoCloses} a WHERE a.ticket_id = ${tickets.id})`,
          sql`NOT EXISTS (SELECT 1 FROM ${ticketMessages} m WHERE m.ticket_id = ${tickets.id} AND m.author = 'requester' AND m.created_at > ${tickets.closedAt})`,
        ),
      )
      .orderBy(asc(tickets.closedAt))
      .limit(200);
    let closed = 0;
    for (const { id } of due) {
      const done = await this.db.transaction(async (tx) => {
        const [ticket] = await tx.select().from(tickets).where(eq(tickets.id, id)).for('update');
        if (!ticket || ticket.status !== 'resolved' || !ticket.closedAt || ticket.closedAt > cutoff) return false;
        const [first] = await tx.insert(supportAutoCloses).values({ ticketId: id }).onConflictDoNothing().returning();
        if (!first) return false;
        const { ticket: after } = await addMessage(
          tx,
          ticket,
          'staff',
          null,
          `Closed automatically: resolved ${days} day${days === 1 ? '' : 's'} ago without a reply.`,
          'closed',
          'event',
        );
        await tx.insert(auditLog).values({
          actorId: null,
          actorName: AUTOMATION,
          action: 'ticket.auto_closed',
          targetType: 'ticket',
          targetId: id,
          before: { status: ticket.status },
          after: { status: after.status, autoCloseDays: days },
        });
        const to = ticket.userId ? { userId: ticket.userId } : ticket.guestId ? { guestId: ticket.guestId } : null;
        if (to && ticket.ratedAt === null) {
          await this.deps.notifications?.emit(tx, {
            to,
            event: 'ticket.rating_request',
            key: `ticket.rating_request:${id}`,
            title: `How did we do on ticket #${ticket.number}?`,
            body: `Your ticket "${ticket.subject}" is closed. Rate our answer: it takes a few seconds.`,
            link: ticketLink(id),
          });
        }
        await this.deps.events?.(tx, { kind: 'status_changed', ticketId: id, key: `auto_close:${id}`, origin: 'system', status: 'closed' });
        return true;
      });
      if (done) closed++;
    }
    return closed;
  }
}

async function findRule(db: DbOrTx, id: string): Promise<SupportRuleRow> {
  const ruleId = parseId(id);
  const [row] = ruleId ? await db.select().from(supportRules).where(eq(supportRules.id, ruleId)).for('update') : [];
  if (!row) throw notFound('Rule not found');
  return row;
}

function ruleAudit(row: SupportRuleRow) {
  // Metadata only: a note's words stay out of the audit log (docs/decisions/0234).
  return {
    name: row.name,
    enabled: row.enabled,
    trigger: row.trigger,
    conditions: row.conditions,
    actions: row.actions.map((a) => (a.type === 'internal_note' ? { type: a.type, length: a.body.length } : a)),
  };
}

async function actorOf(db: DbOrTx, userId: string): Promise<{ id: string; username: string }> {
  const [row] = await db.select({ username: users.username }).from(users).where(eq(users.id, userId)).limit(1);
  return { id: userId, username: row?.username ?? 'unknown' };
}
