import { i18n } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { ErrorCode } from '#shared/error-codes';
import { useState, type ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import toast from 'react-hot-toast';
import { ADJUSTMENT_APPROVAL_CENTS, ROLES, type Role } from '#shared/constants';
import type { AdminUser } from '#shared/schemas/admin';
import { toCents } from '#shared/fees';
import { staffPaths } from '#shared/routes';
import { creditAdjustmentBodySchema, DEFAULT_ADJUSTMENT_NOTE } from '#shared/schemas/credits';
import { SelectField, TextField } from '#web/components/ui/forms';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { Pagination } from '#web/components/ui/pagination';
import { QueryState } from '#web/components/ui/query-state';
import { QueryTable } from '#web/components/ui/query-table';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { useAdjustCredits, type AdjustCreditsRequested, type AdjustCreditsResult } from '../api/adjust-credits';
import { useUser } from '../api/get-user';
import { useUserActivity } from '../api/get-user-activity';
import { useUserLedger } from '../api/get-user-ledger';
import { useUsers } from '../api/get-users';
import { useUpdateUser, type UserChange } from '../api/update-user';
import { AdminTwoFactorReset, StepUpField, useStepUp } from '#web/features/two-factor';
import { newIdempotencyKey } from '#web/lib/idempotency-key';
import { AdjustmentRequestsPanel, signedCredits } from './adjustment-requests-panel';
import { formatLocaleCreditAmount, formatLocaleCreditCents, formatLocaleDateTime, pageLocale } from '#web/lib/format';
import { RichText, useLocale } from '#web/features/language';
import { describeLedgerEntry, describeLedgerText } from '#web/features/payments';
import { codeLabel, LEDGER_KIND_LABELS, MONEY_STATUS_LABELS, ROLE_LABELS } from './labels';

/** "10.00 credits" in the language on screen (the amount keeps the product's two decimals). */
const creditsLabel = (cents: number) => {
  const amount = formatLocaleCreditCents(cents);
  return t`${amount} credits`;
};

/** Whether an adjustment's answer is a request waiting for a second admin (202), not a posted entry (201). */
const isAdjustmentRequested = (result: AdjustCreditsResult): result is AdjustCreditsRequested => 'request' in result;

/** Whether a refusal was about the second factor: the step-up field shows it, not the form. */
const aboutSecondFactor = (err: unknown) =>
  err instanceof ApiError && (err.code === ErrorCode.TWO_FACTOR_REQUIRED || err.code === ErrorCode.INVALID_TWO_FACTOR_CODE);

/**
 * Search users; each opens at its own URL (/dashboard/staff/users/:id) with balance, ledger and
 * sessions, and (admins) actions on the account. The search is in the URL too (?q=), so going back
 * from a user shows the same results.
 */
export function UsersPanel() {
  useLocale();
  const [params, setParams] = useSearchParams();
  const submitted = params.get('q') ?? '';
  const [search, setSearch] = useState(submitted);
  // The search runs on submit: typing alone asks nothing.
  const users = useUsers(submitted);
  const runSearch = (text: string) => {
    if (text === submitted) void users.refetch();
    else setParams(text ? { q: text } : {});
  };
  const searchForm = useForm({ action: () => runSearch(search) });

  return (
    <section aria-labelledby="users-title" className="admin-panel">
      <h2 id="users-title">{t`Users`}</h2>
      <Form form={searchForm} noValidate={false} role="search" className="admin-search">
        <label htmlFor="admin-user-search" className="visually-hidden">
          {t`Search users`}
        </label>
        <input
          id="admin-user-search"
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder={t`Username, email, id or referral code`}
        />
        <button type="submit" className="btn btn-primary btn-small">
          {t`Search`}
        </button>
      </Form>
      <QueryTable
        query={users}
        label={t`Users`}
        className="admin-table rtable"
        wrapClassName="table-wrap rtable-wrap"
        rows={(data) => data.users}
        loading={t`Loading users…`}
        failed={t`Failed to search users`}
        empty={t`No users match.`}
        columns={
          <>
            <th scope="col">{t`Username`}</th>
            <th scope="col">{t`Email`}</th>
            <th scope="col">{t`Role`}</th>
            <th scope="col" className="num">
              {t`Credits`}
            </th>
            <th scope="col">{t`State`}</th>
          </>
        }
        row={(u) => (
          <tr key={u._id}>
            <td data-label={t`Username`}>
              <Link to={staffPaths.user(u._id)}>{u.username}</Link>
            </td>
            <td data-label={t`Email`}>{u.email}</td>
            <td data-label={t`Role`}>{codeLabel(ROLE_LABELS, u.role)}</td>
            <td data-label={t`Credits`} className="num">
              {formatLocaleCreditAmount(u.credits)}
            </td>
            <td data-label={t`State`}>{u.disabled ? t`Disabled` : t`Active`}</td>
          </tr>
        )}
      />
    </section>
  );
}

/** /dashboard/staff/users/:id: one user, opened from the list or straight from a link. */
export function UserDetailRoute({ isAdmin }: { isAdmin: boolean }) {
  const { id = '' } = useParams();
  return <UserDetail key={id} id={id} isAdmin={isAdmin} />;
}

function BackToUsers() {
  useLocale();
  return (
    <Link className="btn btn-ghost btn-small" to={staffPaths.section('users')}>
      ← {t`Users`}
    </Link>
  );
}

function UserDetail({ id, isAdmin }: { id: string; isAdmin: boolean }) {
  useLocale();
  const [ledgerPage, setLedgerPage] = useState(1);
  const detailQuery = useUser(id);
  const ledgerQuery = useUserLedger(id, ledgerPage);
  const ledger = ledgerQuery.data;

  return (
    <section className="admin-panel" aria-labelledby="user-detail-title">
      <BackToUsers />
      <QueryState
        data={detailQuery.data}
        loading={t`Loading user…`}
        error={detailQuery.error ? errorMessage(detailQuery.error, t`Failed to load user`) : null}
        onRetry={() => void detailQuery.refetch()}
      >
        {({ user, counts, sessions }) => (
          <>
            <h2 id="user-detail-title">{user.username}</h2>
            <dl className="admin-facts">
              <dt>{t`Email`}</dt>
              <dd>{user.email}</dd>
              <dt>{t`Role`}</dt>
              <dd>
                {codeLabel(ROLE_LABELS, user.role)}
                {user.subroles.length > 0 && ` (${user.subroles.join(', ')})`}
              </dd>
              <dt>{t`Balance`}</dt>
              <dd data-testid="admin-user-balance" aria-busy={!ledger || undefined}>
                {ledger ? creditsLabel(ledger.balanceCents) : '…'}
              </dd>
              <dt>{t`State`}</dt>
              <dd>{user.disabled ? t`Disabled` : t`Active`}</dd>
              <dt>{t`Joined`}</dt>
              <dd>{formatLocaleDateTime(user.createdAt)}</dd>
              <dt>{t`Tickets / payments`}</dt>
              <dd>
                {counts.tickets} / {counts.payments}
              </dd>
            </dl>

            {isAdmin && ledger && <AdjustCreditsForm user={user} balanceCents={ledger.balanceCents} />}
            {isAdmin && <AdjustmentRequestsPanel userId={user._id} headingLevel={3} />}
            {isAdmin && <AccountActions user={user} />}
            {isAdmin && <AdminTwoFactorReset userId={user._id} />}

            <h3>{t`Ledger`}</h3>
            <QueryTable
              scrollable
              query={ledgerQuery}
              label={t`Ledger entries`}
              rows={(data) => data.entries}
              loading={t`Loading the ledger…`}
              failed={t`Failed to load the ledger`}
              empty={t`No ledger entries yet.`}
              className="admin-table rtable"
              wrapClassName="table-wrap rtable-wrap"
              columns={
                <>
                  <th scope="col">{t`When`}</th>
                  <th scope="col">{t`Kind`}</th>
                  <th scope="col" className="num">
                    {t`Amount`}
                  </th>
                  <th scope="col" className="num">
                    {t`Balance after`}
                  </th>
                  <th scope="col">{t`Customer sees`}</th>
                  <th scope="col">{t`Internal reason`}</th>
                </>
              }
              row={(e) => (
                <tr key={e._id}>
                  <td data-label={t`When`}>{formatLocaleDateTime(e.createdAt)}</td>
                  <td data-label={t`Kind`}>{codeLabel(LEDGER_KIND_LABELS, e.kind)}</td>
                  <td data-label={t`Amount`} className="num">
                    {(e.amountCents > 0 ? '+' : '') + formatLocaleCreditCents(e.amountCents)}
                  </td>
                  <td data-label={t`Balance after`} className="num">
                    {formatLocaleCreditCents(e.balanceAfterCents)}
                  </td>
                  <td data-label={t`Customer sees`}>{describeLedgerEntry(e)}</td>
                  <td data-label={t`Internal reason`}>{e.internalReason ?? '—'}</td>
                </tr>
              )}
            />
            {ledger && ledger.total > ledger.pageSize && (
              <Pagination
                page={ledgerPage}
                pages={Math.ceil(ledger.total / ledger.pageSize)}
                onPage={setLedgerPage}
                label={t`Ledger pages`}
              />
            )}

            <UserActivity userId={user._id} />

            <h3>{t`Active sessions`}</h3>
            <QueryTable
              scrollable
              query={detailQuery}
              label={t`Active sessions`}
              rows={() => sessions}
              loading={t`Loading sessions…`}
              failed={t`Failed to load user`}
              empty={t`No active sessions.`}
              columns={
                <>
                  <th scope="col">{t`Device`}</th>
                  <th scope="col">{t`Address`}</th>
                  <th scope="col">{t`Last seen`}</th>
                </>
              }
              row={(s) => (
                <tr key={s._id}>
                  <td>{s.userAgent ?? t`Unknown device`}</td>
                  <td>{s.ip ?? t`unknown address`}</td>
                  <td>{formatLocaleDateTime(s.lastSeenAt)}</td>
                </tr>
              )}
            />
          </>
        )}
      </QueryState>
    </section>
  );
}

interface AdjustmentDraft {
  amountCents: number;
  amount: number;
  reason: string;
  customerNote: string;
  /** The balance the confirmation shows; the server applies the change only at this balance. */
  balanceBeforeCents: number;
}

/**
 * Adjusts a balance in two steps (docs/decisions/0235): the form, then a confirmation with the
 * balance before and after and what the customer will read, and the admin's second factor when
 * two-factor is on. The internal reason is for staff only; the customer reads the note, or "Balance
 * adjustment by support". From ADJUSTMENT_APPROVAL_CENTS either way nothing is posted: the server
 * answers 202 with a request that waits for a second admin (four eyes), and this says so.
 */
function AdjustCreditsForm({ user, balanceCents }: { user: AdminUser; balanceCents: number }) {
  useLocale();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [customerNote, setCustomerNote] = useState('');
  const [draft, setDraft] = useState<AdjustmentDraft | null>(null);
  // One key per intended adjustment: a double click or a retry posts once.
  const [key, setKey] = useState(newIdempotencyKey);
  const adjust = useAdjustCredits();
  const stepUp = useStepUp();
  // A large adjustment sent for approval: what was asked, until the next one.
  const [sent, setSent] = useState<{ amountCents: number; balanceCents: number } | null>(null);

  const parseAdjustment = () =>
    creditAdjustmentBodySchema.safeParse({
      userId: user._id,
      amount: amount.trim() === '' ? undefined : Number(amount),
      reason,
      customerNote,
    });

  /** The review's checks: the schema's (a typed amount that is not a number says so), then the balance's floor. */
  function reviewProblems(): Record<string, string> {
    const parsed = parseAdjustment();
    if (!parsed.success) {
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? 'form');
        fields[field] ??= field === 'amount' && amount.trim() !== '' && Number.isNaN(Number(amount)) ? t`Enter an amount` : issue.message;
      }
      return fields;
    }
    if (balanceCents + toCents(parsed.data.amount) < 0) {
      const balance = formatLocaleCreditCents(balanceCents);
      return { amount: t`That would take the balance below zero (it is ${balance} credits)` };
    }
    return {};
  }

  function review() {
    const parsed = parseAdjustment();
    if (!parsed.success) return;
    setSent(null);
    setDraft({
      amountCents: toCents(parsed.data.amount),
      amount: parsed.data.amount,
      reason: parsed.data.reason,
      customerNote: parsed.data.customerNote ?? '',
      balanceBeforeCents: balanceCents,
    });
  }

  async function confirm(draft: AdjustmentDraft) {
    const result = await adjust.mutateAsync({
      userId: user._id,
      amount: draft.amount,
      reason: draft.reason,
      ...(draft.customerNote ? { customerNote: draft.customerNote } : {}),
      expectedBalanceCents: draft.balanceBeforeCents,
      idempotencyKey: key,
      ...stepUp.fields(),
    });
    if (isAdjustmentRequested(result)) {
      // 202: nothing is posted; a second admin decides (the request is listed below).
      setSent({ amountCents: result.request.amountCents, balanceCents: draft.balanceBeforeCents });
    } else {
      const before = formatLocaleCreditCents(result.balanceBeforeCents);
      const now = formatLocaleCreditCents(result.balanceCents);
      toast.success(t`Balance adjusted: ${before} → ${now} credits`);
    }
    stepUp.reset();
    setAmount('');
    setReason('');
    setCustomerNote('');
    setDraft(null);
    setKey(newIdempotencyKey());
  }

  const sentBalance = sent ? formatLocaleCreditCents(sent.balanceCents) : '';
  const sentChange = sent ? signedCredits(sent.amountCents) : '';

  // One state for both steps: the review form, then the confirmation (a refusal there goes back to the review).
  const form = useForm({
    validate: () => (draft ? {} : reviewProblems()),
    action: () => (draft ? confirm(draft) : review()),
    onError: (err) => {
      // About the second factor: the confirmation stays, and its field says why.
      if (stepUp.handleError(err)) return true;
      if (err instanceof ApiError) setDraft(null);
      return false;
    },
    // The balance moved since the confirmation: the new figures are shown and asked again.
    mapFieldErrors: (fields) => fields,
    formError: (err, fields) =>
      err instanceof ApiError
        ? err.code === ErrorCode.BALANCE_CHANGED || Object.keys(fields).length === 0
          ? errorMessage(err, err.message)
          : null
        : t`Failed to adjust credits`,
  });
  const errors = form.errors as Record<string, string | undefined>;
  // A check of the whole body (no one field) is said above the form, as a refusal is.
  const formMessage = form.formError ?? errors.form;
  // The words a customer reads when no note is given, in this page's language (docs/decisions/0330).
  const defaultNote = describeLedgerText(DEFAULT_ADJUSTMENT_NOTE, 'adjustment');

  let view: ReactNode;
  if (draft) {
    const after = draft.balanceBeforeCents + draft.amountCents;
    const needsApproval = Math.abs(draft.amountCents) >= ADJUSTMENT_APPROVAL_CENTS;
    const figures = `${formatLocaleCreditCents(draft.balanceBeforeCents)} → ${formatLocaleCreditCents(after)}`;
    const approvalLimit = formatLocaleCreditCents(ADJUSTMENT_APPROVAL_CENTS);
    const change = signedCredits(draft.amountCents);
    view = (
      <Form form={form} noValidate={false} className="admin-form adjust-confirm" aria-labelledby="adjust-confirm-title">
        <h3 id="adjust-confirm-title">{t`Confirm the adjustment`}</h3>
        {needsApproval && (
          <p className="adjust-approval-note" data-testid="adjust-needs-approval">
            {t`From ${approvalLimit} credits either way, a second admin must approve. Confirming sends it for approval; the balance does not change until then.`}
          </p>
        )}
        <dl className="admin-facts" data-testid="adjust-confirmation">
          <dt>{t`Account`}</dt>
          <dd>
            {user.username} ({user.email})
          </dd>
          <dt>{t`Balance now`}</dt>
          <dd data-testid="adjust-before">{creditsLabel(draft.balanceBeforeCents)}</dd>
          <dt>{t`Change`}</dt>
          <dd>{t`${change} credits`}</dd>
          <dt>{needsApproval ? t`Balance after approval` : t`Balance after`}</dt>
          <dd data-testid="adjust-after">{creditsLabel(after)}</dd>
          <dt>{t`The customer reads`}</dt>
          <dd>{describeLedgerText(draft.customerNote || DEFAULT_ADJUSTMENT_NOTE, 'adjustment')}</dd>
          <dt>{t`Internal reason (staff only)`}</dt>
          <dd>{draft.reason}</dd>
        </dl>
        {formMessage && (
          <p className="field-error" role="alert">
            {formMessage}
          </p>
        )}
        <StepUpField stepUp={stepUp} disabled={form.busy} />
        <div className="actions">
          <StatusButton busy={form.busy} busyLabel={needsApproval ? t`Sending…` : t`Applying…`} className="btn btn-primary btn-small">
            {needsApproval ? t`Send for approval: ${figures}` : t`Confirm: ${figures}`}
          </StatusButton>
          <button type="button" className="btn btn-ghost btn-small" disabled={form.busy} onClick={() => setDraft(null)}>
            {t`Back`}
          </button>
        </div>
      </Form>
    );
  } else {
    view = (
      <Form form={form} className="admin-form" aria-labelledby="adjust-title">
        <h3 id="adjust-title">{t`Adjust credits`}</h3>
        {formMessage && (
          <p className="field-error" role="alert">
            {formMessage}
          </p>
        )}
        <TextField
          id="adjust-amount"
          label={t`Amount (credits, negative to deduct)`}
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          error={errors.amount}
        />
        <TextField
          id="adjust-reason"
          label={t`Internal reason (staff only)`}
          note={t`Kept in the audit log and the staff ledger. The customer never sees it.`}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          error={errors.reason}
        />
        <TextField
          id="adjust-note"
          label={t`Note for the customer (optional)`}
          note={t`Shown in their credit history. Left empty, they read “${defaultNote}”.`}
          maxLength={200}
          value={customerNote}
          onChange={(e) => setCustomerNote(e.target.value)}
          error={errors.customerNote}
        />
        <button type="submit" className="btn btn-primary btn-small">
          {t`Review adjustment`}
        </button>
      </Form>
    );
  }

  return (
    <>
      <div role="status" aria-live="polite" className="adjust-sent-status" data-testid="adjust-sent">
        {sent && (
          <p className="adjust-sent">
            <RichText
              message={t`<0>Sent to a second admin for approval.</0> Nothing has changed yet: the balance stays at ${sentBalance} credits until another admin approves ${sentChange} credits. It is listed under “Waiting for a second admin”.`}
              elements={[<strong key="sent" />]}
            />
          </p>
        )}
      </div>
      {view}
    </>
  );
}

function AccountActions({ user }: { user: AdminUser }) {
  useLocale();
  const [role, setRole] = useState<Role>(user.role);
  const [subroles, setSubroles] = useState(user.subroles.join(', '));
  const [reason, setReason] = useState('');
  const update = useUpdateUser(user._id);
  // Granting a role is a staff power: the admin's second factor when two-factor is on.
  const stepUp = useStepUp();

  async function run(change: UserChange, success: string) {
    try {
      await update.mutateAsync(change);
      toast.success(success);
    } catch (err) {
      toast.error(errorMessage(err, t`The change failed`));
    }
  }

  const roleForm = useForm({
    action: async () => {
      if (update.isPending) return;
      await update.mutateAsync({
        kind: 'role',
        role,
        subroles: subroles
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
        ...stepUp.fields(),
      });
      stepUp.reset();
      toast.success(t`Role saved`);
    },
    onError: (err) => stepUp.handleError(err),
    mapFieldErrors: () => ({}),
    formError: (err) => errorMessage(err, t`The change failed`),
  });
  const roleError = roleForm.formError;

  return (
    <div className="admin-form">
      <h3>{t`Account`}</h3>
      <Form form={roleForm} noValidate={false} className="admin-role-form" aria-label={t`Change role`}>
        <div className="ticket-form-row">
          <SelectField
            id="admin-role"
            label={t`Role`}
            options={ROLES.map((value) => ({ value, label: codeLabel(ROLE_LABELS, value) }))}
            value={role}
            onChange={(e) => setRole(e.target.value as Role)}
          />
          <TextField
            id="admin-subroles"
            label={t`Subroles (comma separated)`}
            value={subroles}
            onChange={(e) => setSubroles(e.target.value)}
          />
        </div>
        {roleError && !aboutSecondFactor(update.error) && (
          <p className="field-error" role="alert">
            {roleError}
          </p>
        )}
        <StepUpField stepUp={stepUp} disabled={update.isPending} />
        <button type="submit" className="btn btn-secondary btn-small" disabled={update.isPending}>
          {t`Save role`}
        </button>
      </Form>
      <TextField
        id="admin-disable-reason"
        label={t`Reason for disabling or re-enabling`}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
      <button
        type="button"
        className={user.disabled ? 'btn btn-secondary btn-small' : 'btn btn-danger btn-small'}
        onClick={() =>
          void run({ kind: 'disabled', disabled: !user.disabled, reason }, user.disabled ? t`Account re-enabled` : t`Account disabled`)
        }
      >
        {user.disabled ? t`Re-enable account` : t`Disable account`}
      </button>
    </div>
  );
}

const ACTIVITY_KINDS = ['payments', 'exchanges', 'tickets'] as const;

/** Each kind of activity's heading and table texts, translated where they render. */
const ACTIVITY_TEXT = {
  payments: {
    title: msg`Payments`,
    recent: msg`Recent payments`,
    loading: msg`Loading payments…`,
    failed: msg`Failed to load payments`,
  },
  exchanges: {
    title: msg`Exchanges`,
    recent: msg`Recent exchanges`,
    loading: msg`Loading exchanges…`,
    failed: msg`Failed to load exchanges`,
  },
  tickets: {
    title: msg`Tickets`,
    recent: msg`Recent tickets`,
    loading: msg`Loading tickets…`,
    failed: msg`Failed to load tickets`,
  },
} as const;

/** The user's payments, exchanges and tickets, newest first (the full lists live in their tabs). */
function UserActivity({ userId }: { userId: string }) {
  useLocale();
  const activity = useUserActivity(userId);
  return (
    <div className="admin-activity">
      {ACTIVITY_KINDS.map((kind) => (
        <section key={kind} aria-label={i18n._(ACTIVITY_TEXT[kind].recent)}>
          <h3>{i18n._(ACTIVITY_TEXT[kind].title)}</h3>
          <QueryTable
            scrollable
            query={activity}
            label={i18n._(ACTIVITY_TEXT[kind].recent)}
            rows={(data) => data[kind]}
            loading={i18n._(ACTIVITY_TEXT[kind].loading)}
            failed={i18n._(ACTIVITY_TEXT[kind].failed)}
            empty={t`None.`}
            columns={
              <>
                <th scope="col">{t`What`}</th>
                <th scope="col">{t`Status`}</th>
                <th scope="col">{t`When`}</th>
              </>
            }
            row={(r) => (
              <tr key={r._id}>
                <td>{r.label}</td>
                <td>{codeLabel(MONEY_STATUS_LABELS, r.status)}</td>
                <td>{new Date(r.createdAt).toLocaleDateString(pageLocale())}</td>
              </tr>
            )}
          />
        </section>
      ))}
    </div>
  );
}
