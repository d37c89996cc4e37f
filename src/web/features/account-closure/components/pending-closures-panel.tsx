import { useId, useState } from 'react';
import { formatCredits } from '#shared/fees';
import type { LatePaymentRefund, PendingClosure } from '#shared/schemas/account-closure';
import { TextField } from '#web/components/ui/forms';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { QueryTable } from '#web/components/ui/query-table';
import { ErrorCode } from '#shared/error-codes';
import { StepUpField, useStepUp } from '#web/features/two-factor';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { formatWhen } from '#web/lib/format';
import { useEraseAccount } from '../api/erase-account';
import { usePendingClosures } from '../api/get-pending-closures';
import { useMarkLatePaymentRefunded } from '../api/mark-late-payment-refunded';
import '../account-closure.css';

/** Whether a refusal was about the second factor: the step-up field shows it, not the form. */
const aboutSecondFactor = (err: unknown) =>
  err instanceof ApiError && (err.code === ErrorCode.TWO_FACTOR_REQUIRED || err.code === ErrorCode.INVALID_TWO_FACTOR_CODE);

/**
 * Erasing at once asks for the username typed again, and the admin's second factor when two-factor is
 * on; the server checks both and records the action.
 */
function EraseNowForm({ closure, onDone }: { closure: PendingClosure; onDone: (message: string | null) => void }) {
  const id = useId();
  const erase = useEraseAccount();
  const [typed, setTyped] = useState('');
  const stepUp = useStepUp();

  // The field shows the request's failure itself (a second-factor refusal goes to the step-up field).
  const form = useForm({
    action: () => erase.mutateAsync({ id: closure._id, confirmUsername: typed, ...stepUp.fields() }),
    onSuccess: () => onDone(`${closure.username} was erased; ${formatCredits(closure.balanceCents)} credits were written off.`),
    onError: (err) => {
      stepUp.handleError(err);
      return true;
    },
  });

  return (
    <Form form={form} noValidate={false} className="erase-now" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Erase {closure.username} now?</h3>
      <p>
        This cannot be undone. The person can no longer restore the account; {formatCredits(closure.balanceCents)} credits are written off.
        Do this only when they asked for it. The action is recorded in the audit log.
      </p>
      <TextField
        label={`Type ${closure.username} to confirm`}
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        autoComplete="off"
        required
        error={erase.isError && !aboutSecondFactor(erase.error) ? errorMessage(erase.error, 'The account could not be erased') : undefined}
        errorAlert
      />
      <StepUpField stepUp={stepUp} disabled={form.busy} />
      <div className="actions">
        <StatusButton busy={form.busy} busyLabel="Erasing…" className="btn btn-danger btn-small" disabled={typed.trim() === ''}>
          Erase now
        </StatusButton>
        <button type="button" className="btn btn-ghost btn-small" onClick={() => onDone(null)} disabled={form.busy}>
          Cancel
        </button>
      </div>
    </Form>
  );
}

/** Recording a late payment's refund asks how the money went back (a transaction id or a note); audit-logged. */
function MarkRefundedForm({ payment, onDone }: { payment: LatePaymentRefund; onDone: (message: string | null) => void }) {
  const id = useId();
  const mark = useMarkLatePaymentRefunded();
  const [note, setNote] = useState('');

  // The field shows the request's failure itself.
  const form = useForm({
    action: () => mark.mutateAsync({ id: payment._id, note }),
    onSuccess: () => onDone(`The payment of ${formatCredits(payment.priceAmountCents)} USD was recorded as refunded.`),
    onError: () => true,
  });

  return (
    <Form form={form} noValidate={false} className="erase-now" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Record the refund of {formatCredits(payment.priceAmountCents)} USD?</h3>
      <p>Send the money back to its sender at the payment provider first; this only records it. The action is recorded in the audit log.</p>
      <TextField
        label="How it was sent back (transaction id or note)"
        value={note}
        onChange={(e) => setNote(e.target.value)}
        autoComplete="off"
        required
        error={mark.isError ? errorMessage(mark.error, 'The refund could not be recorded') : undefined}
        errorAlert
      />
      <div className="actions">
        <StatusButton busy={form.busy} busyLabel="Recording…" className="btn btn-primary btn-small" disabled={note.trim() === ''}>
          Record refund
        </StatusButton>
        <button type="button" className="btn btn-ghost btn-small" onClick={() => onDone(null)} disabled={form.busy}>
          Cancel
        </button>
      </div>
    </Form>
  );
}

/**
 * The staff console's pending closures (decision 0255): accounts whose owners closed them, with the
 * balance they forfeit and when the erasure job will erase them. Admins can erase one at once.
 */
export function PendingClosuresPanel({ isAdmin }: { isAdmin: boolean }) {
  const id = useId();
  const closures = usePendingClosures();
  const [erasing, setErasing] = useState<PendingClosure | null>(null);
  const [refunding, setRefunding] = useState<LatePaymentRefund | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  return (
    <section className="admin-panel pending-closures" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Closing accounts</h2>
      <p className="muted">
        Accounts their owners closed. Each is erased automatically on its date unless the owner signs in and restores it; its balance is
        then written off and its financial records are kept under <code>deleted-&lt;id&gt;</code>.
      </p>
      <p role="status" aria-live="polite">
        {notice}
      </p>
      {erasing && (
        <EraseNowForm
          key={erasing._id}
          closure={erasing}
          onDone={(message) => {
            setErasing(null);
            setNotice(message);
          }}
        />
      )}
      <QueryTable
        query={closures}
        label="Closing accounts"
        rows={(data) => data.closures}
        loading="Loading closing accounts…"
        failed="Failed to load closing accounts"
        empty="No account is closing."
        columns={
          <>
            <th scope="col">User</th>
            <th scope="col">Email</th>
            <th scope="col" className="num">
              Balance to forfeit
            </th>
            <th scope="col">Closed</th>
            <th scope="col">Erased on</th>
            {isAdmin && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </>
        }
        row={(c) => (
          <tr key={c._id}>
            <td>{c.username}</td>
            <td>{c.email}</td>
            <td className="num">{formatCredits(c.balanceCents)}</td>
            <td>{formatWhen(c.closingAt)}</td>
            <td>
              {c.heldSince ? (
                <span title={`Held since ${formatWhen(c.heldSince)}`}>On hold: a payment arrived while closing</span>
              ) : (
                formatWhen(c.erasureAt)
              )}
            </td>
            {isAdmin && (
              <td>
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  onClick={() => {
                    setNotice(null);
                    setErasing(c);
                  }}
                  aria-label={`Erase ${c.username} now`}
                >
                  Erase now…
                </button>
              </td>
            )}
          </tr>
        )}
      />
      <h3 id={`${id}-late`}>Payments after erasure</h3>
      <p className="muted">
        Payments that finished after their account was erased. Their credits were written off; send the money back to the sender, then
        record it here.
      </p>
      {refunding && (
        <MarkRefundedForm
          key={refunding._id}
          payment={refunding}
          onDone={(message) => {
            setRefunding(null);
            setNotice(message);
          }}
        />
      )}
      <QueryTable
        query={closures}
        label="Payments after erasure"
        rows={(data) => data.latePayments}
        loading="Loading payments after erasure…"
        failed="Failed to load payments after erasure"
        empty="No payment is waiting for a refund."
        columns={
          <>
            <th scope="col">Payment</th>
            <th scope="col" className="num">
              Paid (USD)
            </th>
            <th scope="col" className="num">
              Written off
            </th>
            <th scope="col">Finished</th>
            <th scope="col">Refund</th>
          </>
        }
        row={(l) => (
          <tr key={l._id}>
            <td>
              <code>{l.paymentId.slice(0, 8)}</code> ({l.payCurrency.toUpperCase()})
            </td>
            <td className="num">{formatCredits(l.priceAmountCents)}</td>
            <td className="num">{formatCredits(l.writtenOffCents)}</td>
            <td>{formatWhen(l.createdAt)}</td>
            <td>
              {l.refundedAt ? (
                `Refunded ${formatWhen(l.refundedAt)}${l.refundNote ? `: ${l.refundNote}` : ''}`
              ) : isAdmin ? (
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  onClick={() => {
                    setNotice(null);
                    setRefunding(l);
                  }}
                  aria-label={`Record the refund of payment ${l.paymentId.slice(0, 8)}`}
                >
                  Record refund…
                </button>
              ) : (
                'Waiting'
              )}
            </td>
          </tr>
        )}
      />
    </section>
  );
}
