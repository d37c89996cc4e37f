import { t } from '@lingui/core/macro';
import { useId, useState } from 'react';
import type { LatePaymentRefund, PendingClosure } from '#shared/schemas/account-closure';
import { TextField } from '#web/components/ui/forms';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { QueryTable } from '#web/components/ui/query-table';
import { ErrorCode } from '#shared/error-codes';
import { StepUpField, useStepUp } from '#web/features/two-factor';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { formatLocaleCreditCents, formatLocaleDateTime } from '#web/lib/format';
import { RichText, useLocale } from '#web/features/language';
import { useEraseAccount } from '../api/erase-account';
import { usePendingClosures } from '../api/get-pending-closures';
import { useMarkLatePaymentRefunded } from '../api/mark-late-payment-refunded';
import '../account-closure.css';

/** Whether a refusal was about the second factor: the step-up field shows it, not the form. */
const aboutSecondFactor = (err: unknown) =>
  err instanceof ApiError && (err.code === ErrorCode.TWO_FACTOR_REQUIRED || err.code === ErrorCode.INVALID_TWO_FACTOR_CODE);

/** A moment in the language on screen, or "—" when there is none. */
const whenText = (iso: string | null) => (iso ? formatLocaleDateTime(iso) : '—');

/**
 * Erasing at once asks for the username typed again, and the admin's second factor when two-factor is
 * on; the server checks both and records the action.
 */
function EraseNowForm({ closure, onDone }: { closure: PendingClosure; onDone: (message: string | null) => void }) {
  useLocale();
  const id = useId();
  const erase = useEraseAccount();
  const [typed, setTyped] = useState('');
  const stepUp = useStepUp();
  const username = closure.username;
  const balance = formatLocaleCreditCents(closure.balanceCents);

  // The field shows the request's failure itself (a second-factor refusal goes to the step-up field).
  const form = useForm({
    action: () => erase.mutateAsync({ id: closure._id, confirmUsername: typed, ...stepUp.fields() }),
    onSuccess: () => onDone(t`${username} was erased; ${balance} credits were written off.`),
    onError: (err) => {
      stepUp.handleError(err);
      return true;
    },
  });

  return (
    <Form form={form} noValidate={false} className="erase-now" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t`Erase ${username} now?`}</h3>
      <p>
        {t`This cannot be undone. The person can no longer restore the account; ${balance} credits are written off. Do this only when they asked for it. The action is recorded in the audit log.`}
      </p>
      <TextField
        label={t`Type ${username} to confirm`}
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        autoComplete="off"
        required
        error={erase.isError && !aboutSecondFactor(erase.error) ? errorMessage(erase.error, t`The account could not be erased`) : undefined}
        errorAlert
      />
      <StepUpField stepUp={stepUp} disabled={form.busy} />
      <div className="actions">
        <StatusButton busy={form.busy} busyLabel={t`Erasing…`} className="btn btn-danger btn-small" disabled={typed.trim() === ''}>
          {t`Erase now`}
        </StatusButton>
        <button type="button" className="btn btn-ghost btn-small" onClick={() => onDone(null)} disabled={form.busy}>
          {t`Cancel`}
        </button>
      </div>
    </Form>
  );
}

/** Recording a late payment's refund asks how the money went back (a transaction id or a note); audit-logged. */
function MarkRefundedForm({ payment, onDone }: { payment: LatePaymentRefund; onDone: (message: string | null) => void }) {
  useLocale();
  const id = useId();
  const mark = useMarkLatePaymentRefunded();
  const [note, setNote] = useState('');
  const price = formatLocaleCreditCents(payment.priceAmountCents);

  // The field shows the request's failure itself.
  const form = useForm({
    action: () => mark.mutateAsync({ id: payment._id, note }),
    onSuccess: () => onDone(t`The payment of ${price} USD was recorded as refunded.`),
    onError: () => true,
  });

  return (
    <Form form={form} noValidate={false} className="erase-now" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t`Record the refund of ${price} USD?`}</h3>
      <p>{t`Send the money back to its sender at the payment provider first; this only records it. The action is recorded in the audit log.`}</p>
      <TextField
        label={t`How it was sent back (transaction id or note)`}
        value={note}
        onChange={(e) => setNote(e.target.value)}
        autoComplete="off"
        required
        error={mark.isError ? errorMessage(mark.error, t`The refund could not be recorded`) : undefined}
        errorAlert
      />
      <div className="actions">
        <StatusButton busy={form.busy} busyLabel={t`Recording…`} className="btn btn-primary btn-small" disabled={note.trim() === ''}>
          {t`Record refund`}
        </StatusButton>
        <button type="button" className="btn btn-ghost btn-small" onClick={() => onDone(null)} disabled={form.busy}>
          {t`Cancel`}
        </button>
      </div>
    </Form>
  );
}

function heldSince(iso: string): string {
  const at = whenText(iso);
  return t`Held since ${at}`;
}

function refundedText(iso: string, note: string | null | undefined): string {
  const at = whenText(iso);
  return note ? t`Refunded ${at}: ${note}` : t`Refunded ${at}`;
}

function recordRefundLabel(paymentId: string): string {
  const payment = paymentId.slice(0, 8);
  return t`Record the refund of payment ${payment}`;
}

/**
 * The staff console's pending closures (decision 0255): accounts whose owners closed them, with the
 * balance they forfeit and when the erasure job will erase them. Admins can erase one at once.
 */
export function PendingClosuresPanel({ isAdmin }: { isAdmin: boolean }) {
  useLocale();
  const id = useId();
  const closures = usePendingClosures();
  const [erasing, setErasing] = useState<PendingClosure | null>(null);
  const [refunding, setRefunding] = useState<LatePaymentRefund | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  return (
    <section className="admin-panel pending-closures" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t`Closing accounts`}</h2>
      <p className="muted">
        <RichText
          message={t`Accounts their owners closed. Each is erased automatically on its date unless the owner signs in and restores it; its balance is then written off and its financial records are kept under <0>deleted-<id></0>.`}
          elements={[<code key="deleted" />]}
        />
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
        label={t`Closing accounts`}
        rows={(data) => data.closures}
        loading={t`Loading closing accounts…`}
        failed={t`Failed to load closing accounts`}
        empty={t`No account is closing.`}
        columns={
          <>
            <th scope="col">{t`User`}</th>
            <th scope="col">{t`Email`}</th>
            <th scope="col" className="num">
              {t`Balance to forfeit`}
            </th>
            <th scope="col">{t`Closed`}</th>
            <th scope="col">{t`Erased on`}</th>
            {isAdmin && (
              <th scope="col">
                <span className="visually-hidden">{t`Actions`}</span>
              </th>
            )}
          </>
        }
        row={(c) => (
          <tr key={c._id}>
            <td>{c.username}</td>
            <td>{c.email}</td>
            <td className="num">{formatLocaleCreditCents(c.balanceCents)}</td>
            <td>{whenText(c.closingAt)}</td>
            <td>
              {c.heldSince ? (
                <span title={heldSince(c.heldSince)}>{t`On hold: a payment arrived while closing`}</span>
              ) : (
                whenText(c.erasureAt)
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
                  aria-label={t`Erase ${c.username} now`}
                >
                  {t`Erase now…`}
                </button>
              </td>
            )}
          </tr>
        )}
      />
      <h3 id={`${id}-late`}>{t`Payments after erasure`}</h3>
      <p className="muted">
        {t`Payments that finished after their account was erased. Their credits were written off; send the money back to the sender, then record it here.`}
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
        label={t`Payments after erasure`}
        rows={(data) => data.latePayments}
        loading={t`Loading payments after erasure…`}
        failed={t`Failed to load payments after erasure`}
        empty={t`No payment is waiting for a refund.`}
        columns={
          <>
            <th scope="col">{t`Payment`}</th>
            <th scope="col" className="num">
              {t`Paid (USD)`}
            </th>
            <th scope="col" className="num">
              {t`Written off`}
            </th>
            <th scope="col">{t`Finished`}</th>
            <th scope="col">{t`Refund`}</th>
          </>
        }
        row={(l) => (
          <tr key={l._id}>
            <td>
              <code>{l.paymentId.slice(0, 8)}</code> ({l.payCurrency.toUpperCase()})
            </td>
            <td className="num">{formatLocaleCreditCents(l.priceAmountCents)}</td>
            <td className="num">{formatLocaleCreditCents(l.writtenOffCents)}</td>
            <td>{whenText(l.createdAt)}</td>
            <td>
              {l.refundedAt ? (
                refundedText(l.refundedAt, l.refundNote)
              ) : isAdmin ? (
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  onClick={() => {
                    setNotice(null);
                    setRefunding(l);
                  }}
                  aria-label={recordRefundLabel(l.paymentId)}
                >
                  {t`Record refund…`}
                </button>
              ) : (
                t`Waiting`
              )}
            </td>
          </tr>
        )}
      />
    </section>
  );
}
