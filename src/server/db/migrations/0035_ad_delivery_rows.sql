-- One row per ad and viewer holds all of that viewer's delivery state (docs/decisions/0296): when the ad
-- was last served to them (a campaign creative's impression and click are valid only within the window
-- after it), when their impression was last counted (the de-duplication gate), and how many were counted
-- on which UTC day (the frequency cap sums a campaign's creatives). The impression batch then updates the
-- row the serve wrote, instead of probing `ad_serves` and writing a row in `ad_campaign_caps`: both go.
ALTER TABLE "ad_viewer_impressions" ALTER COLUMN "last_counted_at" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "ad_viewer_impressions" ADD COLUMN "served_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ad_viewer_impressions" ADD COLUMN "counted_day" date;--> statement-breakpoint
ALTER TABLE "ad_viewer_impressions" ADD COLUMN "counted_today" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
INSERT INTO "ad_viewer_impressions" AS v ("ad_id", "viewer_key", "served_at")
  SELECT "ad_id", "viewer_key", "served_at" FROM "ad_serves"
  ON CONFLICT ("ad_id", "viewer_key") DO UPDATE SET "served_at" = excluded."served_at";--> statement-breakpoint
-- Today's cap counts move to the viewer's row of one creative of the campaign (the cap adds up the rows
-- of all its creatives); earlier days' counts no longer matter.
UPDATE "ad_viewer_impressions" v SET "counted_day" = k."day", "counted_today" = k."impressions"
  FROM "ad_campaign_caps" k
  WHERE k."day" = (now() AT TIME ZONE 'UTC')::date AND v."viewer_key" = k."viewer_key"
    AND v."ad_id" = (SELECT a."id" FROM "ads" a JOIN "ad_viewer_impressions" w ON w."ad_id" = a."id" AND w."viewer_key" = k."viewer_key"
      WHERE a."campaign_id" = k."campaign_id" ORDER BY a."id" LIMIT 1);--> statement-breakpoint
ALTER TABLE "ad_viewer_impressions" ADD CONSTRAINT "ad_viewer_impressions_served_or_counted" CHECK ("ad_viewer_impressions"."served_at" is not null or "ad_viewer_impressions"."last_counted_at" is not null);--> statement-breakpoint
-- Room on each page for the update an impression makes to the row its serve wrote: kept on the same
-- page (a HOT update), it writes no new index entry.
ALTER TABLE "ad_viewer_impressions" SET (fillfactor = 70);--> statement-breakpoint
DROP TABLE "ad_serves";--> statement-breakpoint
DROP TABLE "ad_campaign_caps";
