import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ChargeStatus } from '#shared/schemas/charges';

/** A charge's status as its receipt shows it: the code in English, words in the other languages. */
const CHARGE_STATUS_LABELS: Record<ChargeStatus, MessageDescriptor> = {
  succeeded: msg`succeeded`,
  refunded: msg`refunded`,
};

/** A charge status in the page's language; one the web does not know is shown as it came. */
export function chargeStatusLabel(status: string): string {
  const label = Object.hasOwn(CHARGE_STATUS_LABELS, status) ? CHARGE_STATUS_LABELS[status as ChargeStatus] : undefined;
  return label ? i18n._(label) : status;
}
