import { sql } from 'drizzle-orm';
import { ads } from './ads.tables.js';

/**
 * A campaign is running when it is active, now is inside its dates and what is left pays for at least one
 * more unit (an impression under CPM, a click under CPC); a house campaign without a budget has no
 * limit (`remaining_millicents` null, docs/decisions/0283). `c` names the `ad_campaigns` row.
 */
export const CAMPAIGN_RUNNING = sql.raw(
  `(c.status = 'active' AND c.starts_at <= now() AND c.ends_at > now() AND (c.remaining_millicents IS NULL OR c.remaining_millicents >= c.unit_millicents))`,
);

/**
 * An ad is live when it is active, approved by staff (house ads are), now is inside its schedule, and
 * its campaign, if it has one, is running. Used in every query that serves or counts: nothing
 * unreviewed is ever served or counted.
 */
export const isLive = sql`(${ads.active} AND ${ads.reviewStatus} = 'approved' AND (${ads.startsAt} IS NULL OR ${ads.startsAt} <= now()) AND (${ads.endsAt} IS NULL OR ${ads.endsAt} > now())
  AND (${ads.campaignId} IS NULL OR EXISTS (SELECT 1 FROM ad_campaigns c WHERE c.id = ${ads.campaignId} AND ${CAMPAIGN_RUNNING})))`;

/** Today's UTC day, as the campaign tables key it. */
export const TODAY = sql.raw(`((now() AT TIME ZONE 'UTC')::date)`);
