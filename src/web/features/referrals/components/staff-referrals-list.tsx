import { t } from '@lingui/core/macro';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { staffPaths } from '#shared/routes';
import { REFERRAL_STATUSES, type AdminReferral, type ReferralSignals } from '#shared/schemas/referrals';
import { Pagination } from '#web/components/ui/pagination';
import { QueryTable } from '#web/components/ui/query-table';
import { Form, useForm } from '#web/components/ui/use-form';
import { useLocale } from '#web/features/language';
import { ADMIN_REFERRALS_PAGE_SIZE, useAdminReferrals, type AdminReferralFilters, type ReferralDecision } from '../api/admin-referrals';
import { DecisionDialog } from './decision-dialog';
import { creditsLabel, dayOf, REFERRAL_STATUS_LABELS, referralLabel, STAFF_REFUSAL_REASON_LABELS } from './labels';
import { takenBack } from './my-referrals-list';

const SIGNALS: ReadonlyArray<[keyof ReferralSignals, () => string]> = [
  ['sameEmail', () => t`Same email`],
  ['sameDevice', () => t`Same device`],
  ['sameAddress', () => t`Same network address`],
  ['samePayoutAddress', () => t`Same payout address`],
];

/** The signals two accounts share, as chips; "None" when they share nothing. */
export function SignalChips({ signals }: { signals: ReferralSignals }) {
  useLocale();
  const shown = SIGNALS.filter(([key]) => signals[key]);
  if (shown.length === 0) return <span className="muted">{t`None`}</span>;
  return (
    <ul className="referral-signals" aria-label={t`Shared signals`}>
      {shown.map(([key, label]) => (
        <li key={key} className="referral-signal">
          {label()}
        </li>
      ))}
    </ul>
  );
}

/**
 * Which decisions a referral allows (docs/product.md#referrals): refuse while nothing reached the
 * referrer's balance; reverse once a top-up qualified it (held shares clawed back, paid ones and the
 * welcome bonus taken back); nothing once refused.
 */
export function decisionsFor(r: AdminReferral): ReferralDecision[] {
  if (r.status === 'refused') return [];
  if (r.status === 'rewarded' || r.paidCents > 0) return ['reverse'];
  return r.status === 'qualified' ? ['refuse', 'reverse'] : ['refuse'];
}

/** Every referral, by status and by a username or email, with Refuse and Reverse (admins). */
export function StaffReferralsList() {
  useLocale();
  const id = useId();
  const [filters, setFilters] = useState<AdminReferralFilters>({ status: '', q: '' });
  const [page, setPage] = useState(1);
  const list = useAdminReferrals(filters, page);
  const [open, setOpen] = useState<{ referral: AdminReferral; decision: ReferralDecision } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // The filters apply as they are typed: submitting (Enter) has nothing more to do.
  const filterForm = useForm({ action: () => undefined });
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / ADMIN_REFERRALS_PAGE_SIZE)) : 1;
  const title = t`Referrals`;

  return (
    <section className="admin-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} tabIndex={-1}>
        {title}
      </h2>
      <Form form={filterForm} noValidate={false} className="queue-filters" aria-label={t`Filter referrals`}>
        <label className="inline-field">
          <span>{t`Status`}</span>
          <select
            value={filters.status}
            onChange={(e) => {
              setFilters((f) => ({ ...f, status: e.target.value as AdminReferralFilters['status'] }));
              setPage(1);
            }}
          >
            <option value="">{t`Any`}</option>
            {REFERRAL_STATUSES.map((s) => (
              <option key={s} value={s}>
                {referralLabel(REFERRAL_STATUS_LABELS, s)}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>{t`Search`}</span>
          <input
            type="search"
            value={filters.q}
            onChange={(e) => {
              setFilters((f) => ({ ...f, q: e.target.value }));
              setPage(1);
            }}
            placeholder={t`Username or email`}
            size={18}
          />
        </label>
      </Form>
      <p role="status" aria-live="polite" className="referral-notice">
        {notice}
      </p>
      <QueryTable
        query={list}
        label={title}
        className="admin-table rtable"
        wrapClassName="table-wrap rtable-wrap"
        rows={(data) => data.referrals}
        loading={t`Loading referrals…`}
        failed={t`Failed to load the referrals`}
        empty={t`No referral matches these filters.`}
        columns={
          <>
            <th scope="col">{t`Referrer and invited`}</th>
            <th scope="col">{t`Status`}</th>
            <th scope="col">{t`Signals`}</th>
            <th scope="col" className="num">
              {t`Amounts`}
            </th>
            <th scope="col">{t`Actions`}</th>
          </>
        }
        row={(r: AdminReferral) => {
          const referred = r.referred.username;
          const referrer = r.referrer.username;
          const which = t`${referred}, invited by ${referrer}`;
          const joined = dayOf(r.joinedAt);
          const held = creditsLabel(r.heldCents);
          const paid = creditsLabel(r.paidCents);
          return (
            <tr key={r._id} data-testid={`staff-referral-${r._id}`}>
              <td data-label={t`Referrer and invited`}>
                <span className="referral-people-pair">
                  <Link to={staffPaths.user(r.referrer.userId)}>{referrer}</Link>
                  <span aria-hidden="true"> → </span>
                  <span className="visually-hidden"> {t`invited`} </span>
                  <Link to={staffPaths.user(r.referred.userId)}>{referred}</Link>
                </span>
                <span className="referral-when">{t`Joined on ${joined}`}</span>
              </td>
              <td data-label={t`Status`}>
                <span className="referral-status" data-status={r.status}>
                  {referralLabel(REFERRAL_STATUS_LABELS, r.status)}
                </span>
                {r.refusalReason && <span className="referral-reason">{referralLabel(STAFF_REFUSAL_REASON_LABELS, r.refusalReason)}</span>}
                {r.refusalNote && <span className="referral-note">{r.refusalNote}</span>}
              </td>
              <td data-label={t`Signals`}>
                <SignalChips signals={r.signals} />
              </td>
              <td data-label={t`Amounts`} className="num">
                <span className="referral-amount">{t`Held ${held}`}</span>
                <span className="referral-amount">{t`Paid ${paid}`}</span>
                {r.clawedBackCents > 0 && <span className="referral-clawed">{takenBack(r.clawedBackCents)}</span>}
              </td>
              <td data-label={t`Actions`}>
                <div className="referral-actions">
                  {decisionsFor(r).map((decision) => (
                    <button
                      key={decision}
                      type="button"
                      className="btn btn-secondary btn-small"
                      onClick={() => {
                        setNotice(null);
                        setOpen({ referral: r, decision });
                      }}
                    >
                      {decision === 'refuse' ? t`Refuse` : t`Reverse`} <span className="visually-hidden">{which}</span>
                    </button>
                  ))}
                </div>
              </td>
            </tr>
          );
        }}
      />
      {pages > 1 && <Pagination page={page} pages={pages} onPage={setPage} busy={list.isFetching} label={t`Referrals pages`} />}
      {open && (
        <DecisionDialog
          referral={open.referral}
          decision={open.decision}
          onClose={() => setOpen(null)}
          onDone={(message) => {
            setOpen(null);
            setNotice(message);
          }}
        />
      )}
    </section>
  );
}
