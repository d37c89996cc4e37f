-- Why impressions were invalid (docs/decisions/0319-charts-a-person-can-read.md): the campaign report
-- splits each creative's invalid count of a day into robots, over the frequency cap and unmatched (no
-- serve within the window, or already counted). Expand-only: new columns the previous release never
-- reads. Rows tallied before keep 0 here; the report calls the difference "unrecorded".
ALTER TABLE "ad_campaign_days" ADD COLUMN IF NOT EXISTS "invalid_robot" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ad_campaign_days" ADD COLUMN IF NOT EXISTS "invalid_over_cap" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ad_campaign_days" ADD COLUMN IF NOT EXISTS "invalid_unmatched" integer DEFAULT 0 NOT NULL;
