import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { useId } from 'react';
import { SANDBOX_EXCHANGE_STATUSES, SANDBOX_PAYMENT_STATUSES } from '#shared/schemas/sandbox';
import { useLocale } from '#web/features/language';
import { errorMessage } from '#web/lib/api-client';
import { useMoveInSandbox, type SandboxTarget } from '../api/move-in-sandbox';
import { useSandboxInfo } from '../api/get-sandbox-info';
import '../sandbox.css';

/** The statuses' names on the buttons: "Partially paid" for `partially_paid`. */
const STATUS_LABELS: Record<string, MessageDescriptor> = {
  waiting: msg`Waiting`,
  confirming: msg`Confirming`,
  confirmed: msg`Confirmed`,
  exchanging: msg`Exchanging`,
  sending: msg`Sending`,
  partially_paid: msg`Partially paid`,
  finished: msg`Finished`,
  failed: msg`Failed`,
  refunded: msg`Refunded`,
  expired: msg`Expired`,
};

const label = (status: string) => {
  const known = Object.hasOwn(STATUS_LABELS, status) ? STATUS_LABELS[status] : undefined;
  return known ? i18n._(known) : (status.charAt(0).toUpperCase() + status.slice(1)).replace(/_/g, ' ');
};

/** The panel's sentences for a payment or an exchange, whole so each language words them as it needs. */
function texts(kind: SandboxTarget['kind']) {
  return kind === 'payment'
    ? {
        statuses: SANDBOX_PAYMENT_STATUSES as readonly string[],
        title: t`Move this payment`,
        group: t`Move this payment to`,
        note: t`This server runs the payment provider as a local sandbox. Nothing is really paid. Each button moves the payment at the local provider, which then notifies Olympus as the real one would; "Finished" credits your balance.`,
      }
    : {
        statuses: SANDBOX_EXCHANGE_STATUSES as readonly string[],
        title: t`Move this exchange`,
        group: t`Move this exchange to`,
        note: t`This server runs the swap provider as a local sandbox. No coins move. Each button moves the exchange at the local provider, as the real one would; "Finished" credits its reward.`,
      };
}

/**
 * A clearly marked panel, shown only while the provider runs as a local sandbox and never in production
 * (decision 0231), that moves a payment or an exchange to any status so the whole flow can be tried offline.
 */
export function SandboxPanel({ target, onMoved }: { target: SandboxTarget; onMoved: () => void }) {
  useLocale();
  const info = useSandboxInfo();
  const move = useMoveInSandbox(target, onMoved);
  const titleId = useId();
  const offered = target.kind === 'payment' ? info?.controls.payments : info?.controls.exchanges;
  if (!offered) return null;
  const text = texts(target.kind);
  const moved = move.isSuccess ? label(move.variables) : '';
  return (
    <aside className="sandbox-panel" aria-labelledby={titleId} data-testid="sandbox-panel">
      <p className="sandbox-badge">{t`Sandbox`}</p>
      <h2 id={titleId}>{text.title}</h2>
      <p className="sandbox-note">{text.note}</p>
      <div className="sandbox-actions" role="group" aria-label={text.group}>
        {text.statuses.map((status) => (
          <button
            key={status}
            type="button"
            className="btn btn-secondary btn-small"
            disabled={move.isPending}
            onClick={() => move.mutate(status)}
          >
            {label(status)}
          </button>
        ))}
      </div>
      <p role="status" className="sandbox-result">
        {move.isPending
          ? t`Moving…`
          : move.isError
            ? errorMessage(move.error, t`The sandbox did not answer.`)
            : move.isSuccess
              ? t`Moved to "${moved}".`
              : ''}
      </p>
    </aside>
  );
}
