import { sql } from 'drizzle-orm';
import type { CampaignReport, CampaignReportRow } from '#shared/schemas/ads.js';
import { csvText } from '#server/modules/receipts/receipts.service.js';
import { TODAY } from './ad-sql.js';
import { oneCampaign, type CampaignDeps } from './campaign-rows.js';

// ---- Reports ----------------------------------------------------------------------------------------

/** Per UTC day and creative, the last `days` days (today included), oldest first. `ownerId` null: staff. */
export async function campaignReport(deps: CampaignDeps, ownerId: string | null, id: string, days: number): Promise<CampaignReport> {
  const campaign = await oneCampaign(deps.db, id, ownerId);
  const result = await deps.db.execute<{
    day: string;
    ad_id: string;
    title: string;
    served: number;
    viewable: number;
    invalid: number;
    invalid_robot: number;
    invalid_over_cap: number;
    invalid_unmatched: number;
    clicks: number;
    spend: string;
  }>(sql`
      SELECT to_char(d.day, 'YYYY-MM-DD') AS day, d.ad_id, a.title, d.served, d.viewable, d.invalid,
        d.invalid_robot, d.invalid_over_cap, d.invalid_unmatched, d.clicks, d.spend_millicents AS spend
      FROM ad_campaign_days d JOIN ads a ON a.id = d.ad_id
      WHERE d.campaign_id = ${id} AND d.day > ${TODAY} - ${days}::int
      ORDER BY d.day, a.created_at, a.id`);
  const rows: CampaignReportRow[] = result.rows.map((r) => {
    const invalid = Number(r.invalid);
    const robot = Number(r.invalid_robot);
    const overCap = Number(r.invalid_over_cap);
    const unmatched = Number(r.invalid_unmatched);
    return {
      day: r.day,
      creativeId: r.ad_id,
      creativeTitle: r.title,
      served: Number(r.served),
      viewable: Number(r.viewable),
      invalid,
      // Rows tallied before reasons were kept (migration 0040) have them at 0: the rest is unrecorded.
      invalidReasons: { robot, overCap, unmatched, unrecorded: Math.max(0, invalid - robot - overCap - unmatched) },
      clicks: Number(r.clicks),
      clickThroughRate: Number(r.viewable) > 0 ? Number(r.clicks) / Number(r.viewable) : 0,
      spendMillicents: Number(r.spend),
    };
  });
  return { campaign, rows };
}

/** The report as CSV (RFC 4180, cells a spreadsheet would run as formulas guarded as in the ledger export). */
export async function campaignReportCsv(deps: CampaignDeps, ownerId: string | null, id: string, days: number): Promise<string> {
  const { rows } = await campaignReport(deps, ownerId, id, days);
  const lines = ['day,creative_id,creative,served,viewable,invalid,invalid_robot,invalid_over_cap,invalid_unmatched,clicks,ctr,spend'];
  for (const r of rows) {
    lines.push(
      [
        r.day,
        r.creativeId,
        csvText(r.creativeTitle),
        r.served,
        r.viewable,
        r.invalid,
        r.invalidReasons.robot,
        r.invalidReasons.overCap,
        r.invalidReasons.unmatched,
        r.clicks,
        r.clickThroughRate.toFixed(4),
        (r.spendMillicents / 100_000).toFixed(5),
      ].join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
