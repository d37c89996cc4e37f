import { ErrorCode } from '#shared/error-codes';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { ADJUSTMENT_APPROVAL_CENTS } from '#shared/constants';
import { formatCredits } from '#shared/fees';
import { staffPaths } from '#shared/routes';
import { DEFAULT_ADJUSTMENT_NOTE, rejectAdjustmentBodySchema, type AdjustmentRequest } from '#shared/schemas/credits';
import { TextareaField } from '#web/components/ui/forms';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { QueryState } from '#web/components/ui/query-state';
import { signedInUserId, useSessionStore } from '#web/features/auth';
import { StepUpField, useStepUp } from '#web/features/two-factor';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { formatWhen } from '#web/lib/format';
import { useApproveAdjustmentRequest, usePendingAdjustmentRequests, useRejectAdjustmentRequest } from '../api/adjustment-requests';

/** +1000.00 / -1000.00: the sign always shown. */
export const signedCredits = (cents: number) => `${cents > 0 ? '+' : cents < 0 ? '-' : ''}${formatCredits(Math.abs(cents))}`;

/** Whether a refusal was about the second factor: the step-up field shows it, not the form. */
const aboutSecondFactor = (err: unknown) =>
  err instanceof ApiError && (err.code === ErrorCode.TWO_FACTOR_REQUIRED || err.code === ErrorCode.INVALID_TWO_FACTOR_CODE);

/** What a decision that came too late says: someone else decided first (the list is refreshed). */
const alreadyDecided = (err: unknown) => err instanceof ApiError && err.code === ErrorCode.ALREADY_DECIDED;

type Done = (message: string) => void;

/** Approving posts the adjustment now, with the approving admin's own second factor. */
function ApproveForm({ request, onCancel, onDone }: { request: AdjustmentRequest; onCancel: () => void; onDone: Done }) {
  const id = useId();
  const approve = useApproveAdjustmentRequest();
  const stepUp = useStepUp();
  const amount = `${signedCredits(request.amountCents)} credits`;

  // An action that awaits, not mutate's callbacks: the refreshed list may drop this request (and this form) first.
  const form = useForm({
    action: async () => {
      await approve.mutateAsync({ id: request._id, ...stepUp.fields() });
      onDone(`Approved: ${amount} posted to the balance of ${request.user.username}.`);
    },
    onError: (err) => {
      if (stepUp.handleError(err)) return true;
      if (!alreadyDecided(err)) return false;
      onDone(`${errorMessage(err, 'Someone else decided first')}. The list is up to date.`);
      return true;
    },
    mapFieldErrors: () => ({}),
    formError: (err) => errorMessage(err, 'Could not approve the adjustment'),
  });
  const error = form.formError;

  return (
    <Form form={form} noValidate={false} className="adjustment-decision" aria-labelledby={`${id}-title`}>
      <p id={`${id}-title`}>
        <strong>
          Approve {amount} for {request.user.username}?
        </strong>{' '}
        It is posted to their balance at once.
      </p>
      {error && !aboutSecondFactor(approve.error) && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <StepUpField stepUp={stepUp} disabled={form.busy} />
      <div className="actions">
        <StatusButton busy={form.busy} busyLabel="Approving…" className="btn btn-primary btn-small">
          {`Approve ${amount}`}
        </StatusButton>
        <button type="button" className="btn btn-ghost btn-small" onClick={onCancel} disabled={form.busy}>
          Cancel
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
  const id = useId();
  const reject = useRejectAdjustmentRequest();
  const [note, setNote] = useState('');
  const verb = mine ? 'Withdraw' : 'Reject';

  // Every failure is said on the note's field; only the check before sending moves focus there.
  const form = useForm<'note'>({
    validate: () => {
      const parsed = rejectAdjustmentBodySchema.safeParse({ note });
      return parsed.success ? {} : { note: parsed.error.issues[0]?.message ?? 'Say why' };
    },
    action: async () => {
      await reject.mutateAsync({ id: request._id, note: rejectAdjustmentBodySchema.parse({ note }).note });
      onDone(
        `${mine ? 'Withdrawn' : 'Rejected'}: ${signedCredits(request.amountCents)} credits for ${request.user.username}. Nothing was posted.`,
      );
    },
    onError: (err) => {
      if (alreadyDecided(err)) onDone(`${errorMessage(err, 'Someone else decided first')}. The list is up to date.`);
      else {
        const api = err instanceof ApiError ? err : null;
        form.setErrors({ note: api?.fieldErrors.note ?? errorMessage(err, `Could not ${verb.toLowerCase()} the adjustment`) });
      }
      return true;
    },
  });

  return (
    <Form
      form={form}
      className="adjustment-decision"
      aria-label={`${verb} ${signedCredits(request.amountCents)} credits for ${request.user.username}`}
    >
      <TextareaField
        id={`${id}-note`}
        label={mine ? 'Why are you withdrawing it?' : 'Why are you rejecting it?'}
        note="Kept in the audit log."
        rows={2}
        maxLength={500}
        name="note"
        value={note}
        onChange={(e) => setNote(e.target.value)}
        error={form.errors.note}
        errorAlert
      />
      <div className="actions">
        <StatusButton busy={form.busy} busyLabel={`${mine ? 'Withdrawing' : 'Rejecting'}…`} className="btn btn-secondary btn-small">
          {`${verb} request`}
        </StatusButton>
        <button type="button" className="btn btn-ghost btn-small" onClick={onCancel} disabled={form.busy}>
          Cancel
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
  const id = useId();
  const [open, setOpen] = useState<'approve' | 'reject' | null>(null);
  const mine = myId !== null && request.requestedBy.userId === myId;
  const amount = `${signedCredits(request.amountCents)} credits`;
  // What the buttons say to a screen reader, where several requests are listed.
  const which = showAccount ? `${amount} for ${request.user.username}` : amount;
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
            for <Link to={staffPaths.user(request.user.userId)}>{request.user.username}</Link>
          </>
        )}
      </p>
      <dl className="admin-facts">
        <dt>Asked by</dt>
        <dd>
          {request.requestedBy.username}
          {mine && ' (you)'}
        </dd>
        <dt>When</dt>
        <dd>{formatWhen(request.requestedAt)}</dd>
        <dt>Internal reason</dt>
        <dd>{request.reason}</dd>
        <dt>The customer reads</dt>
        <dd>{request.customerNote || DEFAULT_ADJUSTMENT_NOTE}</dd>
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
            Approve <span className="visually-hidden">{which}</span>
          </button>
          <button type="button" className="btn btn-ghost btn-small" onClick={() => setOpen('reject')}>
            {mine ? 'Withdraw' : 'Reject'} <span className="visually-hidden">{which}</span>
          </button>
          {mine && (
            <p id={`${id}-why`} className="muted adjustment-request-why">
              You asked for this one: another admin must approve it.
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
  const id = useId();
  const requests = usePendingAdjustmentRequests(userId);
  const myId = useSessionStore(signedInUserId);
  const [notice, setNotice] = useState<string | null>(null);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';

  return (
    <section className={headingLevel === 2 ? 'admin-panel adjustment-requests' : 'adjustment-requests'} aria-labelledby={`${id}-title`}>
      <Heading id={`${id}-title`} tabIndex={-1}>
        Waiting for a second admin
      </Heading>
      <p className="muted">
        Adjustments of {formatCredits(ADJUSTMENT_APPROVAL_CENTS)} credits or more either way are posted only when another admin approves
        them.
      </p>
      <p role="status" aria-live="polite" className="adjustment-requests-notice">
        {notice}
      </p>
      <QueryState
        data={requests.data?.requests}
        loading="Loading requests…"
        error={requests.error ? errorMessage(requests.error, 'Failed to load the requests') : null}
        onRetry={() => void requests.refetch()}
        isEmpty={(list) => list.length === 0}
        empty={userId ? 'No adjustment for this user is waiting.' : 'No adjustment is waiting.'}
      >
        {(list) => (
          <ul className="adjustment-request-list" aria-label="Adjustments waiting for a second admin">
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
