import { t } from '@lingui/core/macro';
import { useId } from 'react';
import toast from 'react-hot-toast';
import type { ReferralReportWeek } from '#shared/schemas/referrals';
import { QueryTable } from '#web/components/ui/query-table';
import { useLocale } from '#web/features/language';
import { errorMessage } from '#web/lib/api-client';
import { formatLocaleCredits } from '#web/lib/format';
import { REPORT_WEEKS, useDownloadReferralReport, useReferralReport } from '../api/admin-referrals';
import { dayOf } from './labels';

/** The programme week by week (ISO weeks from Monday, UTC), with the same weeks as a CSV file. */
export function ReferralReport() {
  useLocale();
  const id = useId();
  const report = useReferralReport(REPORT_WEEKS);
  const download = useDownloadReferralReport();
  const title = t`Week by week`;

  async function exportCsv() {
    try {
      await download.mutateAsync(REPORT_WEEKS);
    } catch (err) {
      toast.error(errorMessage(err, t`Failed to download the report`));
    }
  }

  return (
    <section className="admin-panel" aria-labelledby={`${id}-title`}>
      <div className="cluster">
        <h2 id={`${id}-title`}>{title}</h2>
        <button type="button" className="btn btn-secondary btn-small" onClick={() => void exportCsv()} disabled={download.isPending}>
          {download.isPending ? t`Downloading…` : t`Download CSV`}
        </button>
      </div>
      <p className="muted">{t`The last ${REPORT_WEEKS} weeks, newest first, each from Monday (UTC). Amounts in credits.`}</p>
      <QueryTable
        query={report}
        label={title}
        className="admin-table referral-report-table"
        wrapClassName="table-wrap"
        scrollable
        // Newest week first: what staff look at is the week now.
        rows={(data) => [...data.weeks].sort((a, b) => b.weekStart.localeCompare(a.weekStart))}
        loading={t`Loading the report…`}
        failed={t`Failed to load the report`}
        empty={t`Nothing happened in these weeks.`}
        columns={
          <>
            <th scope="col">{t`Week of`}</th>
            <th scope="col" className="num">
              {t`Referrers`}
            </th>
            <th scope="col" className="num">
              {t`Joined`}
            </th>
            <th scope="col" className="num">
              {t`Topped up`}
            </th>
            <th scope="col" className="num">
              {t`Refused`}
            </th>
            <th scope="col" className="num">
              {t`Paid`}
            </th>
            <th scope="col" className="num">
              {t`Taken back`}
            </th>
            <th scope="col" className="num">
              {t`Welcome bonuses`}
            </th>
          </>
        }
        row={(w: ReferralReportWeek) => (
          <tr key={w.weekStart}>
            <td data-label={t`Week of`}>{dayOf(w.weekStart)}</td>
            <td data-label={t`Referrers`} className="num">
              {w.referrers}
            </td>
            <td data-label={t`Joined`} className="num">
              {w.joined}
            </td>
            <td data-label={t`Topped up`} className="num">
              {w.qualified}
            </td>
            <td data-label={t`Refused`} className="num">
              {w.refused}
            </td>
            <td data-label={t`Paid`} className="num">
              {formatLocaleCredits(w.paidCents)}
            </td>
            <td data-label={t`Taken back`} className="num">
              {formatLocaleCredits(w.clawedBackCents)}
            </td>
            <td data-label={t`Welcome bonuses`} className="num">
              {formatLocaleCredits(w.welcomeBonusCents)}
            </td>
          </tr>
        )}
      />
    </section>
  );
}
