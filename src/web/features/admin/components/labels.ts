import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { Role } from '#shared/constants';
import type { ExchangeStatus } from '#shared/schemas/exchange';
import type { LedgerEntry } from '#shared/schemas/credits';
import type { AdminMailMessage } from '#shared/schemas/mail';
import type { PaymentStatus } from '#shared/schemas/payments';
import type { IncidentImpact, IncidentStatus, StatusComponentId } from '#shared/schemas/status';

/*
 * The codes the staff console shows (roles, statuses, kinds), in the page's language (decision 0326).
 * Staff read the codes themselves in English, as the API and the logs write them; the other languages
 * give them words.
 */

export const ROLE_LABELS: Record<Role, MessageDescriptor> = {
  user: msg`user`,
  support: msg`support`,
  admin: msg`admin`,
};

export const MAIL_STATUS_LABELS: Record<AdminMailMessage['status'], MessageDescriptor> = {
  pending: msg`pending`,
  sending: msg`sending`,
  sent: msg`sent`,
  failed: msg`failed`,
};

export const LEDGER_KIND_LABELS: Record<LedgerEntry['kind'], MessageDescriptor> = {
  payment: msg`payment`,
  reward: msg`reward`,
  adjustment: msg`adjustment`,
  spend: msg`spend`,
  refund: msg`refund`,
  settlement: msg`settlement`,
  forfeit: msg`forfeit`,
  referral_reward: msg`referral reward`,
  welcome_bonus: msg`welcome bonus`,
  referral_clawback: msg`referral clawback`,
};

/** Payments' and exchanges' statuses (both lists, as the money panel and a user's activity show them). */
export const MONEY_STATUS_LABELS: Record<PaymentStatus | ExchangeStatus, MessageDescriptor> = {
  pending: msg`pending`,
  new: msg`new`,
  waiting: msg`waiting`,
  confirming: msg`confirming`,
  confirmed: msg`confirmed`,
  exchanging: msg`exchanging`,
  sending: msg`sending`,
  verifying: msg`verifying`,
  partially_paid: msg`partially_paid`,
  finished: msg`finished`,
  completed: msg`completed`,
  failed: msg`failed`,
  refunded: msg`refunded`,
  expired: msg`expired`,
};

export const IMPACT_LABELS: Record<IncidentImpact, MessageDescriptor> = {
  minor: msg`minor`,
  major: msg`major`,
  critical: msg`critical`,
};

export const INCIDENT_STATUS_LABELS: Record<IncidentStatus, MessageDescriptor> = {
  investigating: msg`investigating`,
  identified: msg`identified`,
  monitoring: msg`monitoring`,
  resolved: msg`resolved`,
};

export const COMPONENT_ID_LABELS: Record<StatusComponentId, MessageDescriptor> = {
  api: msg`api`,
  database: msg`database`,
  'payment-provider': msg`payment-provider`,
  'swap-provider': msg`swap-provider`,
};

/** A code in the page's language; one the table does not know is shown as it came. */
export function codeLabel(labels: Readonly<Record<string, MessageDescriptor>>, code: string): string {
  const label = Object.hasOwn(labels, code) ? labels[code] : undefined;
  return label ? i18n._(label) : code;
}
