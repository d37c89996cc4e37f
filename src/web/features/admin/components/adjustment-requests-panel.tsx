import { t } from '@lingui/core/macro';
import { ErrorCode } from '#shared/error-codes';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { ADJUSTMENT_APPROVAL_CENTS } from '#shared/constants';
import { staffPaths } from '#shared/routes';
import { DEFAULT_ADJUSTMENT_NOTE, rejectAdjustmentBodySchema, type AdjustmentRequest } from '#shared/schemas/credits';
import { describeLedgerText } from '#web/features/payments';
import { TextareaField } from '#web/components/ui/forms';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { QueryState } from '#web/components/ui/query-state';
import { signedInUserId, useSessionStore } from '#web/features/auth';
import { StepUpField, useStepUp } from '#web/features/two-factor';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { formatLocaleCreditCents, pageLocale } from '#web/lib/format';
import { RichText, useLocale } from '#web/features/language';
import { useApproveAdjustmentRequest, usePendingAdjustmentRequests, useRejectAdjustmentRequest } from '../api/adjustment-requests';

/** +1000.00 / -1000.00: the sign always shown. */
export const signedCredits = (cents: number) => `${cents > 0 ? '+' : cents < 0 ? '-' : ''}${formatLocaleCreditCents(Math.abs(cents))}`;

/** Whether a refusal was about the second factor: the step-up field shows it, not the form. */
const aboutSecondFactor = (err: unknown) =>
  err instanceof ApiError && (err.code === ErrorCode.TWO_FACTOR_REQUIRED || err.code === ErrorCode.INVALID_TWO_FACTOR_CODE);

/** What a decision that came too late says: someone else decided first (the list is refreshed). */
const alreadyDecided = (err: unknown) => err instanceof ApiError && err.code === ErrorCode.ALREADY_DECIDED;

type Done = (message: string) => void;

/** "+1000.00 credits" in the language on screen. */
const signedCreditsLabel = (cents: number) => {
  const amount = signedCredits(cents);
  return t`${amount} credits`;
};

/** Approving posts the adjustment now, with the approving admin's own second factor. */
function ApproveForm({ request, onCancel, onDone }: { request: AdjustmentRequest; onCancel: () => void; onDone: Done }) {
  useLocale();
  const id = useId();
  const approve = useApproveAdjustmentRequest();
  const stepUp = useStepUp();
  const amount = signedCreditsLabel(request.amountCents);
  const username = request.user.username;

  // An action that awaits, not mutate's callbacks: the refreshed list may drop this request (and this form) first.
  const form = useForm({
    action: async () => {
      await approve.mutateAsync({ id: request._id, ...stepUp.fields() });
      onDone(t`Approved: ${amount} posted to the balance of ${username}.`);
    },
    onError: (err) => {
      if (stepUp.handleError(err)) return true;
      if (!alreadyDecided(err)) return false;
      const reason = errorMessage(err, t`Someone else decided first`);
      onDone(t`${reason}. The list is up to date.`);
      return true;
    },
    mapFieldErrors: () => ({}),
    formError: (err) => errorMessage(err, t`Could not approve the adjustment`),
  });
  const error = form.formError;

  return (
    <Form form={form} noValidate={false} className="adjustment-decision" aria-labelledby={`${id}-title`}>
      <p id={`${id}-title`}>
        <strong>{t`Approve ${amount} for ${username}?`}</strong> {t`It is posted to their balance at once.`}
      </p>
      {error && !aboutSecondFactor(approve.error) && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <StepUpField stepUp={stepUp} disabled={form.busy} />
      <div className="actions">
        <StatusButton busy={form.busy} busyLabel={t`Approving…`} className="btn btn-primary btn-small">
          {t`Approve ${amount}`}
        </StatusButton>
        <button type="button" className="btn btn-ghost btn-small" onClick={onCancel} disabled={form.busy}>
          {t`Cancel`}
        </button>
      </div>
    </Form>
  );
}

/** Rejecting (or, by the admin who asked, withdrawing) asks for a note; nothing is posted. */
function RejectForm({
  request,
  mine,
  onCancel,
  onDone,
}: {
  request: AdjustmentRequest;
  mine: boolean;
  onCancel: () => void;
  onDone: Done;
}) {
  useLocale();
  const id = useId();
  const reject = useRejectAdjustmentRequest();
  const [note, setNote] = useState('');
  const amount = signedCredits(request.amountCents);
  const username = request.user.username;

  // Every failure is said on the note's field; only the check before sending moves focus there.
  const form = useForm<'note'>({
    validate: () => {
      const parsed = rejectAdjustmentBodySchema.safeParse({ note });
      return parsed.success ? {} : { note: parsed.error.issues[0]?.message ?? t`Say why` };
    },
    action: async () => {
      await reject.mutateAsync({ id: request._id, note: rejectAdjustmentBodySchema.parse({ note }).note });
      onDone(
        mine
          ? t`Withdrawn: ${amount} credits for ${username}. Nothing was posted.`
          : t`Rejected: ${amount} credits for ${username}. Nothing was posted.`,
      );
    },
    onError: (err) => {
      if (alreadyDecided(err)) {
        const reason = errorMessage(err, t`Someone else decided first`);
        onDone(t`${reason}. The list is up to date.`);
      } else {
        const api = err instanceof ApiError ? err : null;
        const fallback = mine ? t`Could not withdraw the adjustment` : t`Could not reject the adjustment`;
        form.setErrors({ note: api?.fieldErrors.note ?? errorMessage(err, fallback) });
      }
      return true;
    },
  });

  return (
    <Form
      form={form}
      className="adjustment-decision"
      aria-label={mine ? t`Withdraw ${amount} credits for ${username}` : t`Reject ${amount} credits for ${username}`}
    >
      <TextareaField
        id={`${id}-note`}
        label={mine ? t`Why are you withdrawing it?` : t`Why are you rejecting it?`}
        note={t`Kept in the audit log.`}
        rows={2}
        maxLength={500}
        name="note"
        value={note}
        onChange={(e) => setNote(e.target.value)}
        error={form.errors.note}
        errorAlert
      />
      <div className="actions">
        <StatusButton busy={form.busy} busyLabel={mine ? t`Withdrawing…` : t`Rejecting…`} className="btn btn-secondary btn-small">
          {mine ? t`Withdraw request` : t`Reject request`}
        </StatusButton>
        <button type="button" className="btn btn-ghost btn-small" onClick={onCancel} disabled={form.busy}>
          {t`Cancel`}
        </button>
      </div>
    </Form>
  );
}

function RequestItem({
  request,
  myId,
  showAccount,
  onDone,
}: {
  request: AdjustmentRequest;
  myId: string | null;
  showAccount: boolean;
  onDone: Done;
}) {
  useLocale();
  const id = useId();
  const [open, setOpen] = useState<'approve' | 'reject' | null>(null);
  const mine = myId !== null && request.requestedBy.userId === myId;
  const amount = signedCreditsLabel(request.amountCents);
  const username = request.user.username;
  // What the buttons say to a screen reader, where several requests are listed.
  const which = showAccount ? t`${amount} for ${username}` : amount;
  const done = (message: string) => {
    setOpen(null);
    onDone(message);
  };

  return (
    <li className="adjustment-request">
      <p className="adjustment-request-title">
        <strong>{amount}</strong>
        {showAccount && (
          <>
            {' '}
            <RichText message={t`for <0>${username}</0>`} elements={[<Link key="user" to={staffPaths.user(request.user.userId)} />]} />
          </>
        )}
      </p>
      <dl className="admin-facts">
        <dt>{t`Asked by`}</dt>
        <dd>
          {request.requestedBy.username}
          {mine && ` ${t`(you)`}`}
        </dd>
        <dt>{t`When`}</dt>
        <dd>{new Date(request.requestedAt).toLocaleString(pageLocale())}</dd>
        <dt>{t`Internal reason`}</dt>
        <dd>{request.reason}</dd>
        <dt>{t`The customer reads`}</dt>
        <dd>{describeLedgerText(request.customerNote || DEFAULT_ADJUSTMENT_NOTE, 'adjustment')}</dd>
      </dl>
      {open === 'approve' && <ApproveForm request={request} onCancel={() => setOpen(null)} onDone={done} />}
      {open === 'reject' && <RejectForm request={request} mine={mine} onCancel={() => setOpen(null)} onDone={done} />}
      {open === null && (
        <div className="actions">
          <button
            type="button"
            className="btn btn-primary btn-small"
            disabled={mine}
            aria-describedby={mine ? `${id}-why` : undefined}
            onClick={() => setOpen('approve')}
          >
            {t`Approve`} <span className="visually-hidden">{which}</span>
          </button>
          <button type="button" className="btn btn-ghost btn-small" onClick={() => setOpen('reject')}>
            {mine ? t`Withdraw` : t`Reject`} <span className="visually-hidden">{which}</span>
          </button>
          {mine && (
            <p id={`${id}-why`} className="muted adjustment-request-why">
              {t`You asked for this one: another admin must approve it.`}
            </p>
          )}
        </div>
      )}
    </li>
  );
}

/**
 * Four eyes (docs/security.md#staff-powers): adjustments of ADJUSTMENT_APPROVAL_CENTS or more either
 * way wait here until a second admin approves them (with their own second factor) or someone rejects
 * them. The admin who asked cannot approve, only withdraw. Of one user (their staff page) or of all
 * (the Users section). Admins only; the server enforces it.
 */
export function AdjustmentRequestsPanel({ userId = null, headingLevel = 2 }: { userId?: string | null; headingLevel?: 2 | 3 }) {
  useLocale();
  const id = useId();
  const requests = usePendingAdjustmentRequests(userId);
  const approvalLimit = formatLocaleCreditCents(ADJUSTMENT_APPROVAL_CENTS);
  const myId = useSessionStore(signedInUserId);
  const [notice, setNotice] = useState<string | null>(null);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';

  return (
    <section className={headingLevel === 2 ? 'admin-panel adjustment-requests' : 'adjustment-requests'} aria-labelledby={`${id}-title`}>
      <Heading id={`${id}-title`} tabIndex={-1}>
        {t`Waiting for a second admin`}
      </Heading>
      <p className="muted">
        {t`Adjustments of ${approvalLimit} credits or more either way are posted only when another admin approves them.`}
      </p>
      <p role="status" aria-live="polite" className="adjustment-requests-notice">
        {notice}
      </p>
      <QueryState
        data={requests.data?.requests}
        loading={t`Loading requests…`}
        error={requests.error ? errorMessage(requests.error, t`Failed to load the requests`) : null}
        onRetry={() => void requests.refetch()}
        isEmpty={(list) => list.length === 0}
        empty={userId ? t`No adjustment for this user is waiting.` : t`No adjustment is waiting.`}
      >
        {(list) => (
          <ul className="adjustment-request-list" aria-label={t`Adjustments waiting for a second admin`}>
            {list.map((r) => (
              <RequestItem
                key={r._id}
                request={r}
                myId={myId}
                showAccount={!userId}
                onDone={(message) => {
                  setNotice(message);
                  document.getElementById(`${id}-title`)?.focus();
                }}
              />
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}
