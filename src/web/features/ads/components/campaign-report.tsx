import { useId } from 'react';
import { BarChart } from '#web/components/charts/bar-chart';
import toast from 'react-hot-toast';
import type { Campaign, CampaignReportRow } from '#shared/schemas/ads';
import { errorMessage } from '#web/lib/api-client';
import { useCampaignReport } from '../api/get-campaigns';
import { useDownloadCampaignCsv } from '../api/download-campaign-report';
import { formatDate, formatDayShort, formatSpend } from '#web/lib/format';

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

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
      title="Spend per day"
      bars={days.map((d) => ({ label: formatDate(d.day), short: formatDayShort(d.day), value: d.spendMillicents }))}
      format={(millicents) => `${formatSpend(millicents)} credits`}
      xAxis="UTC day"
      yAxis="Spend in credits"
      empty="No spend yet."
    />
  );
}

const REASONS = [
  ['robot', 'from known robots'],
  ['overCap', 'over the frequency cap'],
  ['unmatched', 'repeated within the window or without a matching serve'],
  ['unrecorded', 'counted before reasons were kept'],
] as const;

/** Why impressions were refused as invalid (never charged), in words, over the whole report. */
function InvalidReasons({ rows }: { rows: CampaignReportRow[] }) {
  const total = rows.reduce((s, r) => s + r.invalid, 0);
  if (total === 0) return <p className="muted">No invalid traffic: every impression shown met the rules.</p>;
  const parts = REASONS.map(([key, words]) => [rows.reduce((s, r) => s + r.invalidReasons[key], 0), words] as const).filter(([n]) => n > 0);
  return (
    <p className="muted" data-testid="invalid-reasons">
      {total} invalid {total === 1 ? 'impression' : 'impressions'}, never charged: {parts.map(([n, words]) => `${n} ${words}`).join(', ')}.
    </p>
  );
}

/** A campaign's report: chart, the table per day and creative, and the CSV export. `staff`: through the staff routes. */
export function CampaignReport({ campaign, staff = false }: { campaign: Campaign; staff?: boolean }) {
  const id = useId();
  const report = useCampaignReport(campaign._id, staff);
  const download = useDownloadCampaignCsv();
  const rows = report.data?.rows ?? null;

  async function exportCsv() {
    try {
      await download.mutateAsync({ id: campaign._id, staff });
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to export the report'));
    }
  }

  return (
    <section className="campaign-report stack" aria-labelledby={`${id}-title`}>
      <div className="cluster">
        <h3 id={`${id}-title`}>Report: {campaign.name}</h3>
        <button type="button" className="btn btn-secondary btn-small" onClick={() => void exportCsv()} disabled={download.isPending}>
          {download.isPending ? 'Exporting…' : 'Download CSV'}
        </button>
      </div>
      {report.isError && (
        <div role="alert">
          <p className="field-error">{errorMessage(report.error, 'Failed to load the report')}</p>
          <button type="button" className="btn btn-secondary btn-small" onClick={() => void report.refetch()}>
            Try again
          </button>
        </div>
      )}
      {rows === null && !report.isError && (
        <p role="status" className="muted">
          Loading the report…
        </p>
      )}
      {rows !== null && rows.length === 0 && <p className="muted">Nothing served yet. Figures appear here once the campaign is shown.</p>}
      {rows !== null && rows.length > 0 && (
        <>
          <SpendChart days={byDay(rows)} />
          <InvalidReasons rows={rows} />
          <div className="rtable-wrap">
            <table className="rtable">
              <caption>Per day and creative (UTC)</caption>
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col">Creative</th>
                  <th scope="col" className="num">
                    Served
                  </th>
                  <th scope="col" className="num">
                    Viewable
                  </th>
                  <th scope="col" className="num">
                    Invalid
                  </th>
                  <th scope="col" className="num">
                    Clicks
                  </th>
                  <th scope="col" className="num">
                    CTR
                  </th>
                  <th scope="col" className="num">
                    Spend
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={`${r.day}-${r.creativeId}`}>
                    <td data-label="Day">{r.day}</td>
                    <th scope="row" data-label="Creative">
                      {r.creativeTitle}
                    </th>
                    <td className="num" data-label="Served">
                      {r.served}
                    </td>
                    <td className="num" data-label="Viewable">
                      {r.viewable}
                    </td>
                    <td
                      className="num"
                      data-label="Invalid"
                      title={REASONS.filter(([key]) => r.invalidReasons[key] > 0)
                        .map(([key, words]) => `${r.invalidReasons[key]} ${words}`)
                        .join(', ')}
                    >
                      {r.invalid}
                    </td>
                    <td className="num" data-label="Clicks">
                      {r.clicks}
                    </td>
                    <td className="num" data-label="CTR">
                      {percent(r.clickThroughRate)}
                    </td>
                    <td className="num" data-label="Spend">
                      {formatSpend(r.spendMillicents)}
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
