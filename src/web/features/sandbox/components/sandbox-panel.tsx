import { useId } from 'react';
import { SANDBOX_EXCHANGE_STATUSES, SANDBOX_PAYMENT_STATUSES } from '#shared/schemas/sandbox';
import { errorMessage } from '#web/lib/api-client';
import { useMoveInSandbox, type SandboxTarget } from '../api/move-in-sandbox';
import { useSandboxInfo } from '../api/get-sandbox-info';
import '../sandbox.css';

const label = (status: string) => (status.charAt(0).toUpperCase() + status.slice(1)).replace(/_/g, ' ');

const TEXT = {
  payment: {
    provider: 'payment provider',
    what: 'this payment',
    statuses: SANDBOX_PAYMENT_STATUSES as readonly string[],
    note: 'Nothing is really paid. Each button moves the payment at the local provider, which then notifies Olympus as the real one would; "Finished" credits your balance.',
  },
  exchange: {
    provider: 'swap provider',
    what: 'this exchange',
    statuses: SANDBOX_EXCHANGE_STATUSES as readonly string[],
    note: 'No coins move. Each button moves the exchange at the local provider, as the real one would; "Finished" credits its reward.',
  },
} as const;

/**
 * A clearly marked panel, shown only while the provider runs as a local sandbox and never in production
 * (decision 0231), that moves a payment or an exchange to any status so the whole flow can be tried offline.
 */
export function SandboxPanel({ target, onMoved }: { target: SandboxTarget; onMoved: () => void }) {
  const info = useSandboxInfo();
  const move = useMoveInSandbox(target, onMoved);
  const titleId = useId();
  const offered = target.kind === 'payment' ? info?.controls.payments : info?.controls.exchanges;
  if (!offered) return null;
  const text = TEXT[target.kind];
  return (
    <aside className="sandbox-panel" aria-labelledby={titleId} data-testid="sandbox-panel">
      <p className="sandbox-badge">Sandbox</p>
      <h2 id={titleId}>Move {text.what}</h2>
      <p className="sandbox-note">
        This server runs the {text.provider} as a local sandbox. {text.note}
      </p>
      <div className="sandbox-actions" role="group" aria-label={`Move ${text.what} to`}>
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
          ? 'Moving…'
          : move.isError
            ? errorMessage(move.error, 'The sandbox did not answer.')
            : move.isSuccess
              ? `Moved to "${label(move.variables)}".`
              : ''}
      </p>
    </aside>
  );
}
