import type { Rule, RuleInput, RuleRun } from '#shared/schemas/support-rules.js';
import type { Db, DbOrTx } from '#server/db/client.js';
import type { JobQueue } from '#server/jobs/job-queue.js';
import type { TicketEventSink } from '../tickets/tickets.service.js';
import { autoClose, autoCloseDays, setAutoCloseDays } from './auto-close.js';
import { listRules, removeRule, ruleRuns, saveRule, setRuleEnabled } from './rule-admin.js';
import { runEvent, sweepNoReply } from './rule-runs.js';
import type { RuleEvent, SupportRulesDeps } from './support-rules-rows.js';
import { setTags } from './ticket-tags.js';

export { conditionsHold, triggerMatches } from './rule-runs.js';
export type { RuleEvent, SupportRulesDeps } from './support-rules-rows.js';

export const RULE_EVENT_JOB = 'support-rules.event';
export const NO_REPLY_SWEEP_JOB = 'support-rules.no-reply-sweep';
export const AUTO_CLOSE_JOB = 'support-rules.auto-close';

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

/**
 * Rules, tags and auto-close of the support desk (docs/decisions/0294). Each concern lives in its own
 * file and is handed the deps it needs: ticket-tags.ts, rule-admin.ts (the rules and the run log),
 * rule-runs.ts (execution and the no-reply sweep), auto-close.ts; shared rows and lookups are
 * support-rules-rows.ts.
 */
export class SupportRulesService {
  constructor(private readonly deps: SupportRulesDeps) {}

  private get db(): Db {
    return this.deps.db;
  }

  // ---- Tags ---------------------------------------------------------------------------------------

  setTags(staffId: string, ticketId: string, tags: string[]): Promise<string[]> {
    return setTags(this.db, staffId, ticketId, tags);
  }

  // ---- Rules --------------------------------------------------------------------------------------

  list(): Promise<Rule[]> {
    return listRules(this.db);
  }

  save(staffId: string, id: string | null, body: RuleInput): Promise<Rule> {
    return saveRule(this.db, staffId, id, body);
  }

  setEnabled(staffId: string, id: string, enabled: boolean): Promise<Rule> {
    return setRuleEnabled(this.db, staffId, id, enabled);
  }

  remove(staffId: string, id: string): Promise<void> {
    return removeRule(this.db, staffId, id);
  }

  runs(limit = 50): Promise<RuleRun[]> {
    return ruleRuns(this.db, limit);
  }

  // ---- Execution ----------------------------------------------------------------------------------

  runEvent(event: RuleEvent): Promise<number> {
    return runEvent(this.deps, event);
  }

  sweepNoReply(now: Date = new Date()): Promise<number> {
    return sweepNoReply(this.deps, now);
  }

  // ---- Auto-close ---------------------------------------------------------------------------------

  autoCloseDays(db: DbOrTx = this.db): Promise<number> {
    return autoCloseDays(db);
  }

  setAutoCloseDays(staffId: string, days: number): Promise<number> {
    return setAutoCloseDays(this.db, staffId, days);
  }

  autoClose(now: Date = new Date()): Promise<number> {
    return autoClose(this.deps, now);
  }
}
