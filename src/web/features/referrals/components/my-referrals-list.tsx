import { t } from '@lingui/core/macro';
import { useId, useState } from 'react';
import type { Referral } from '#shared/schemas/referrals';
import { Pagination } from '#web/components/ui/pagination';
import { QueryTable } from '#web/components/ui/query-table';
import { useLocale } from '#web/features/language';
import { MY_REFERRALS_PAGE_SIZE, useMyReferrals } from '../api/my-referrals';
import { creditsLabel, dayOf, REFERRAL_STATUS_LABELS, REFUSAL_REASON_LABELS, referralLabel } from './labels';

/** "1.00 credits taken back". */
export function takenBack(cents: number): string {
  const amount = creditsLabel(cents);
  return t`${amount} taken back`;
}

/** A referral's status, and for a refused one why, in words, with the staff's note when they wrote one. */
export function ReferralStatusText({ referral }: { referral: Referral }) {
  useLocale();
  const note = referral.refusalNote;
  return (
    <>
      <span className="referral-status" data-status={referral.status}>
        {referralLabel(REFERRAL_STATUS_LABELS, referral.status)}
      </span>
      {referral.refusalReason && <span className="referral-reason">{referralLabel(REFUSAL_REASON_LABELS, referral.refusalReason)}</span>}
      {note && <span className="referral-note">{t`Note from our staff: ${note}`}</span>}
    </>
  );
}

/** The people who joined with my link, a page at a time: masked name, when, where it stands, what it earned. */
export function MyReferralsList() {
  useLocale();
  const id = useId();
  const [page, setPage] = useState(1);
  const list = useMyReferrals(page);
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / MY_REFERRALS_PAGE_SIZE)) : 1;
  const title = t`People who joined with your link`;
  return (
    <section className="referral-people stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <QueryTable
        query={list}
        label={title}
        className="rtable referral-table"
        wrapClassName="table-wrap rtable-wrap"
        rows={(data) => data.referrals}
        loading={t`Loading the people who joined…`}
        failed={t`Could not load the people who joined`}
        empty={t`No one has joined with your link yet.`}
        columns={
          <>
            <th scope="col">{t`Person`}</th>
            <th scope="col">{t`Joined on`}</th>
            <th scope="col">{t`Status`}</th>
            <th scope="col" className="num">
              {t`Held`}
            </th>
            <th scope="col" className="num">
              {t`Paid`}
            </th>
          </>
        }
        row={(r: Referral) => (
          <tr key={r._id} data-testid={`referral-${r._id}`}>
            <td data-label={t`Person`}>{r.maskedName}</td>
            <td data-label={t`Joined on`}>{dayOf(r.joinedAt)}</td>
            <td data-label={t`Status`} className="referral-status-cell">
              <ReferralStatusText referral={r} />
            </td>
            <td data-label={t`Held`} className="num">
              {creditsLabel(r.heldCents)}
            </td>
            <td data-label={t`Paid`} className="num">
              {creditsLabel(r.paidCents)}
              {r.clawedBackCents > 0 && <span className="referral-clawed">{takenBack(r.clawedBackCents)}</span>}
            </td>
          </tr>
        )}
      />
      {pages > 1 && <Pagination page={page} pages={pages} onPage={setPage} busy={list.isFetching} label={t`Pages of people who joined`} />}
    </section>
  );
}
