import { i18n } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import { useId } from 'react';
import { BarChart } from '#web/components/charts/bar-chart';
import toast from 'react-hot-toast';
import type { Campaign, CampaignReportRow } from '#shared/schemas/ads';
import { errorMessage } from '#web/lib/api-client';
import { useCampaignReport } from '../api/get-campaigns';
import { useDownloadCampaignCsv } from '../api/download-campaign-report';
import { useLocale } from '#web/features/language';
import { formatDate, formatDayShort, pageLocale } from '#web/lib/format';
import { localeSpend } from './campaign-card';

/** A rate as a percentage with one decimal, as the language writes it ("12.5%", "12,5 %"). */
const percent = (rate: number) =>
  new Intl.NumberFormat(pageLocale(), { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(rate);

interface DayTotal {
  day: string;
  viewable: number;
  clicks: number;
  spendMillicents: number;
}

function byDay(rows: CampaignReportRow[]): DayTotal[] {
  const days = new Map<string, DayTotal>();
  for (const r of rows) {
    const d = days.get(r.day) ?? { day: r.day, viewable: 0, clicks: 0, spendMillicents: 0 };
    d.viewable += r.viewable;
    d.clicks += r.clicks;
    d.spendMillicents += r.spendMillicents;
    days.set(r.day, d);
  }
  return [...days.values()];
}

/** Spend per day as a bar chart with axes; each bar names its day and spend (docs/decisions/0319). */
function SpendChart({ days }: { days: DayTotal[] }) {
  return (
    <BarChart
      title={t`Spend per day`}
      bars={days.map((d) => ({ label: formatDate(d.day), short: formatDayShort(d.day), value: d.spendMillicents }))}
      format={(millicents) => {
        const spend = localeSpend(millicents);
        return t`${spend} credits`;
      }}
      xAxis={t`UTC day`}
      yAxis={t`Spend in credits`}
      empty={t`No spend yet.`}
    />
  );
}

const REASONS = [
  ['robot', msg`from known robots`],
  ['overCap', msg`over the frequency cap`],
  ['unmatched', msg`repeated within the window or without a matching serve`],
  ['unrecorded', msg`counted before reasons were kept`],
] as const;

/** Why impressions were refused as invalid (never charged), in words, over the whole report. */
function InvalidReasons({ rows }: { rows: CampaignReportRow[] }) {
  const total = rows.reduce((s, r) => s + r.invalid, 0);
  if (total === 0) return <p className="muted">{t`No invalid traffic: every impression shown met the rules.`}</p>;
  const parts = REASONS.map(([key, words]) => [rows.reduce((s, r) => s + r.invalidReasons[key], 0), words] as const).filter(([n]) => n > 0);
  const count = plural(total, { one: '# invalid impression', other: '# invalid impressions' });
  const reasons = parts.map(([n, words]) => `${n} ${i18n._(words)}`).join(', ');
  return (
    <p className="muted" data-testid="invalid-reasons">
      {t`${count}, never charged: ${reasons}.`}
    </p>
  );
}

/** A campaign's report: chart, the table per day and creative, and the CSV export. `staff`: through the staff routes. */
export function CampaignReport({ campaign, staff = false }: { campaign: Campaign; staff?: boolean }) {
  const id = useId();
  useLocale();
  const report = useCampaignReport(campaign._id, staff);
  const download = useDownloadCampaignCsv();
  const rows = report.data?.rows ?? null;

  async function exportCsv() {
    try {
      await download.mutateAsync({ id: campaign._id, staff });
    } catch (err) {
      toast.error(errorMessage(err, t`Failed to export the report`));
    }
  }

  const name = campaign.name;
  const labels = {
    day: t`Day`,
    creative: t`Creative`,
    served: t`Served`,
    viewable: t`Viewable`,
    invalid: t`Invalid`,
    clicks: t`Clicks`,
    ctr: t`CTR`,
    spend: t`Spend`,
  };

  return (
    <section className="campaign-report stack" aria-labelledby={`${id}-title`}>
      <div className="cluster">
        <h3 id={`${id}-title`}>{t`Report: ${name}`}</h3>
        <button type="button" className="btn btn-secondary btn-small" onClick={() => void exportCsv()} disabled={download.isPending}>
          {download.isPending ? t`Exporting…` : t`Download CSV`}
        </button>
      </div>
      {report.isError && (
        <div role="alert">
          <p className="field-error">{errorMessage(report.error, t`Failed to load the report`)}</p>
          <button type="button" className="btn btn-secondary btn-small" onClick={() => void report.refetch()}>
            {t`Try again`}
          </button>
        </div>
      )}
      {rows === null && !report.isError && (
        <p role="status" className="muted">
          {t`Loading the report…`}
        </p>
      )}
      {rows !== null && rows.length === 0 && (
        <p className="muted">{t`Nothing served yet. Figures appear here once the campaign is shown.`}</p>
      )}
      {rows !== null && rows.length > 0 && (
        <>
          <SpendChart days={byDay(rows)} />
          <InvalidReasons rows={rows} />
          <div className="rtable-wrap">
            <table className="rtable">
              <caption>{t`Per day and creative (UTC)`}</caption>
              <thead>
                <tr>
                  <th scope="col">{labels.day}</th>
                  <th scope="col">{labels.creative}</th>
                  <th scope="col" className="num">
                    {labels.served}
                  </th>
                  <th scope="col" className="num">
                    {labels.viewable}
                  </th>
                  <th scope="col" className="num">
                    {labels.invalid}
                  </th>
                  <th scope="col" className="num">
                    {labels.clicks}
                  </th>
                  <th scope="col" className="num">
                    {labels.ctr}
                  </th>
                  <th scope="col" className="num">
                    {labels.spend}
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={`${r.day}-${r.creativeId}`}>
                    <td data-label={labels.day}>{r.day}</td>
                    <th scope="row" data-label={labels.creative}>
                      {r.creativeTitle}
                    </th>
                    <td className="num" data-label={labels.served}>
                      {r.served}
                    </td>
                    <td className="num" data-label={labels.viewable}>
                      {r.viewable}
                    </td>
                    <td
                      className="num"
                      data-label={labels.invalid}
                      title={REASONS.filter(([key]) => r.invalidReasons[key] > 0)
                        .map(([key, words]) => `${r.invalidReasons[key]} ${i18n._(words)}`)
                        .join(', ')}
                    >
                      {r.invalid}
                    </td>
                    <td className="num" data-label={labels.clicks}>
                      {r.clicks}
                    </td>
                    <td className="num" data-label={labels.ctr}>
                      {percent(r.clickThroughRate)}
                    </td>
                    <td className="num" data-label={labels.spend}>
                      {localeSpend(r.spendMillicents)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
