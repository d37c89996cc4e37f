import { z } from 'zod';
import { uuidSchema } from './common.js';
import { TICKET_PRIORITIES, TICKET_STATUSES, ticketMessageBodySchema, ticketPrioritySchema, ticketStatusSchema } from './tickets.js';

/**
 * Ticket tags and the support desk's automation rules (docs/decisions/0294, docs/support-rules.md).
 * One schema for the server's validation and the console's forms.
 */

// ---- Tags -----------------------------------------------------------------------------------------

export const TAG_MAX_LENGTH = 32;
export const TAGS_MAX = 10;
const TAG_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;

/** One tag: trimmed, lower-case, letters, digits, "-" and "_". */
export const ticketTagSchema = z
  .string({ error: 'Tag is required' })
  .trim()
  .toLowerCase()
  .min(1, 'Tag is required')
  .max(TAG_MAX_LENGTH, `A tag is at most ${TAG_MAX_LENGTH} characters`)
  .regex(TAG_PATTERN, 'A tag uses letters, digits, "-" and "_" only');

/** A ticket's tags, deduplicated in the order given. */
export const ticketTagsSchema = z
  .array(ticketTagSchema)
  .transform((tags) => [...new Set(tags)])
  .refine((tags) => tags.length <= TAGS_MAX, `At most ${TAGS_MAX} tags`);

export const ticketTagsBodySchema = z.object({ tags: ticketTagsSchema });
export type TicketTagsBody = z.infer<typeof ticketTagsBodySchema>;
export const ticketTagsResponseSchema = z.object({ tags: z.array(z.string()) });

/** Splits what someone typed ("refund, VIP  billing") into tags; the schema then checks each. */
export function parseTagInput(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean);
}

// ---- Rules ----------------------------------------------------------------------------------------

export const RULE_TRIGGERS = ['ticket_created', 'requester_message', 'no_staff_reply', 'status_changed'] as const;
export type RuleTrigger = (typeof RULE_TRIGGERS)[number];
export const RULE_TRIGGER_LABELS: Record<RuleTrigger, string> = {
  ticket_created: 'Ticket created',
  requester_message: 'Message received from the requester',
  no_staff_reply: 'No staff reply for N business hours',
  status_changed: 'Status changed',
};

export const RULE_NAME_MAX = 80;
export const RULE_CONDITIONS_MAX = 10;
export const RULE_ACTIONS_MAX = 10;
export const RULES_MAX = 100;
export const NO_REPLY_HOURS_MAX = 24 * 30;

export const ruleTriggerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ticket_created') }),
  z.object({ type: z.literal('requester_message') }),
  z.object({
    type: z.literal('no_staff_reply'),
    hours: z
      .number({ error: 'Hours must be a whole number' })
      .int('Hours must be a whole number')
      .min(1, 'At least 1 business hour')
      .max(NO_REPLY_HOURS_MAX, `At most ${NO_REPLY_HOURS_MAX} business hours`),
  }),
  /** Without `to`, any change of status. */
  z.object({ type: z.literal('status_changed'), to: ticketStatusSchema.optional() }),
]);
export type RuleTriggerSpec = z.infer<typeof ruleTriggerSchema>;

export const ruleConditionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('subject_contains'), text: z.string().trim().min(1, 'Text is required').max(100, 'At most 100 characters') }),
  z.object({
    type: z.literal('priority_in'),
    priorities: z.array(ticketPrioritySchema).min(1, 'Choose at least one priority').max(TICKET_PRIORITIES.length),
  }),
  z.object({ type: z.literal('requester_kind'), kind: z.enum(['user', 'guest']) }),
  z.object({ type: z.literal('has_tag'), tag: ticketTagSchema }),
  z.object({ type: z.literal('lacks_tag'), tag: ticketTagSchema }),
]);
export type RuleCondition = z.infer<typeof ruleConditionSchema>;
export const RULE_CONDITION_LABELS: Record<RuleCondition['type'], string> = {
  subject_contains: 'Subject contains',
  priority_in: 'Priority is one of',
  requester_kind: 'Requester is',
  has_tag: 'Has tag',
  lacks_tag: 'Lacks tag',
};

export const ruleActionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('assign'), assigneeId: uuidSchema }),
  z.object({ type: z.literal('set_priority'), priority: ticketPrioritySchema }),
  z.object({ type: z.literal('add_tag'), tag: ticketTagSchema }),
  /** A canned reply sent as a visible staff answer, by the desk ("Olympus Support"). */
  z.object({ type: z.literal('canned_reply'), cannedReplyId: uuidSchema }),
  z.object({ type: z.literal('internal_note'), body: ticketMessageBodySchema }),
  z.object({ type: z.literal('close') }),
  /** Any status (close is its common case); kept for rules that move tickets between queues. */
  z.object({ type: z.literal('set_status'), status: ticketStatusSchema }),
]);
export type RuleAction = z.infer<typeof ruleActionSchema>;
export const RULE_ACTION_LABELS: Record<RuleAction['type'], string> = {
  assign: 'Assign to',
  set_priority: 'Set priority',
  add_tag: 'Add tag',
  canned_reply: 'Send canned reply',
  internal_note: 'Add internal note',
  close: 'Close',
  set_status: 'Set status',
};

export const ruleBodySchema = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(RULE_NAME_MAX, `Name must be at most ${RULE_NAME_MAX} characters`),
  enabled: z.boolean().default(true),
  trigger: ruleTriggerSchema,
  conditions: z.array(ruleConditionSchema).max(RULE_CONDITIONS_MAX, `At most ${RULE_CONDITIONS_MAX} conditions`).default([]),
  actions: z.array(ruleActionSchema).min(1, 'Add at least one action').max(RULE_ACTIONS_MAX, `At most ${RULE_ACTIONS_MAX} actions`),
});
export type RuleBody = z.input<typeof ruleBodySchema>;
/** A rule as the server stores it (defaults filled in). */
export type RuleInput = z.output<typeof ruleBodySchema>;

export const ruleEnabledBodySchema = z.object({ enabled: z.boolean() });

export const ruleSchema = z.object({
  _id: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  trigger: ruleTriggerSchema,
  conditions: z.array(ruleConditionSchema),
  actions: z.array(ruleActionSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Rule = z.infer<typeof ruleSchema>;
export const ruleResponseSchema = z.object({ rule: ruleSchema });
export const ruleListResponseSchema = z.object({ rules: z.array(ruleSchema) });

/** One run of a rule on a ticket: what it did. */
export const ruleRunSchema = z.object({
  _id: z.string(),
  ruleId: z.string().nullable(),
  ruleName: z.string(),
  ticketId: z.string(),
  ticketNumber: z.number().int().nullable(),
  event: z.string(),
  actions: z.array(z.string()),
  createdAt: z.string(),
});
export type RuleRun = z.infer<typeof ruleRunSchema>;
export const ruleRunListResponseSchema = z.object({ runs: z.array(ruleRunSchema) });

// ---- Auto-close -----------------------------------------------------------------------------------

export const AUTO_CLOSE_DAYS_MAX = 365;
export const autoCloseSettingsSchema = z.object({
  /** Close tickets resolved this many days ago that the requester did not answer; 0 = never. */
  autoCloseDays: z
    .number({ error: 'Days must be a whole number' })
    .int('Days must be a whole number')
    .min(0, 'At least 0 days')
    .max(AUTO_CLOSE_DAYS_MAX, `At most ${AUTO_CLOSE_DAYS_MAX} days`),
});
export type AutoCloseSettings = z.infer<typeof autoCloseSettingsSchema>;

export { TICKET_PRIORITIES, TICKET_STATUSES };
