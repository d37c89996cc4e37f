import { useId } from 'react';
import toast from 'react-hot-toast';
import type { Campaign, CampaignReportRow } from '#shared/schemas/ads';
import { errorMessage } from '#web/lib/api-client';
import { useCampaignReport } from '../api/get-campaigns';
import { useDownloadCampaignCsv } from '../api/download-campaign-report';
import { formatSpend } from '#web/lib/format';

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

/**
 * Spend per day as bars, in an inline SVG with a title and a description that says the same in words
 * (the table under it has every figure for screen readers and keyboards).
 */
function SpendChart({ days }: { days: DayTotal[] }) {
  const id = useId();
  const width = 600;
  const height = 160;
  const max = Math.max(1, ...days.map((d) => d.spendMillicents));
  const bar = width / Math.max(days.length, 1);
  const total = days.reduce((s, d) => s + d.spendMillicents, 0);
  return (
    <figure className="campaign-chart">
      <svg viewBox={`0 0 ${width} ${height + 20}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} preserveAspectRatio="none">
        <title id={`${id}-title`}>Spend per day</title>
        <desc id={`${id}-desc`}>
          {days.length === 0
            ? 'No spend yet.'
            : `${days.length} days, ${formatSpend(total)} credits in all; the most in one day was ${formatSpend(max)} credits.`}
        </desc>
        {days.map((d, i) => {
          const h = Math.round((d.spendMillicents / max) * height);
          return <rect key={d.day} x={i * bar + bar * 0.15} y={height - h} width={bar * 0.7} height={h} className="campaign-chart-bar" />;
        })}
        <line x1="0" x2={width} y1={height} y2={height} className="campaign-chart-axis" />
      </svg>
      <figcaption className="muted">
        Spend per UTC day, in credits{days.length > 0 ? ` (${days[0]!.day} to ${days.at(-1)!.day})` : ''}.
      </figcaption>
    </figure>
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
                    <td className="num" data-label="Invalid">
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
