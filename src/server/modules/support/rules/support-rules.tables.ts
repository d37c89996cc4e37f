import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { RuleAction, RuleCondition, RuleTriggerSpec } from '#shared/schemas/support-rules.js';
import { tickets } from '../tickets/tickets.tables.js';
import { users } from '#server/modules/users/users.tables.js';

/** An automation rule of the support desk (docs/decisions/0294): trigger, conditions (all), actions (in order). */
export const supportRules = pgTable('support_rules', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  trigger: jsonb('trigger').$type<RuleTriggerSpec>().notNull(),
  conditions: jsonb('conditions').$type<RuleCondition[]>().notNull().default([]),
  actions: jsonb('actions').$type<RuleAction[]>().notNull(),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One run of a rule for one triggering event on one ticket; the unique index makes it at most once. */
export const supportRuleRuns = pgTable(
  'support_rule_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ruleId: uuid('rule_id').references(() => supportRules.id, { onDelete: 'set null' }),
    ruleName: text('rule_name').notNull(),
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    eventKey: text('event_key').notNull(),
    actions: jsonb('actions').$type<string[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('support_rule_runs_once').on(t.ruleId, t.ticketId, t.eventKey), index('support_rule_runs_recent').on(t.createdAt)],
);

/** Tickets closed by auto-close: the row is the at-most-once key of the close and its rating request. */
export const supportAutoCloses = pgTable('support_auto_closes', {
  ticketId: uuid('ticket_id')
    .primaryKey()
    .references(() => tickets.id, { onDelete: 'cascade' }),
  closedAt: timestamp('closed_at', { withTimezone: true }).notNull().defaultNow(),
});

export type SupportRuleRow = typeof supportRules.$inferSelect;
