import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { RuleAction, RuleCondition, RuleTrigger } from '#shared/schemas/support-rules';

/**
 * The names of triggers, conditions and actions as the console shows them (docs/decisions/0326): the
 * English of RULE_TRIGGER_LABELS, RULE_CONDITION_LABELS and RULE_ACTION_LABELS in #shared/schemas/support-rules,
 * as messages translated where they render.
 */
export const TRIGGER_LABELS: Record<RuleTrigger, MessageDescriptor> = {
  ticket_created: msg`Ticket created`,
  requester_message: msg`Message received from the requester`,
  no_staff_reply: msg`No staff reply for N business hours`,
  status_changed: msg`Status changed`,
};

export const CONDITION_LABELS: Record<RuleCondition['type'], MessageDescriptor> = {
  subject_contains: msg`Subject contains`,
  priority_in: msg`Priority is one of`,
  requester_kind: msg`Requester is`,
  has_tag: msg`Has tag`,
  lacks_tag: msg`Lacks tag`,
};

export const ACTION_LABELS: Record<RuleAction['type'], MessageDescriptor> = {
  assign: msg`Assign to`,
  set_priority: msg`Set priority`,
  add_tag: msg`Add tag`,
  canned_reply: msg`Send canned reply`,
  internal_note: msg`Add internal note`,
  close: msg`Close`,
  set_status: msg`Set status`,
};
