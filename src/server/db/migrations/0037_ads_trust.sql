-- Paid ads you can trust (docs/security.md#paid-ads, docs/decisions/0302, 0303). Expand-only: new
-- columns and tables the previous release never reads; nothing it reads is dropped or renamed.
-- Clicks redirect only to the target staff last approved (never to one typed after the review).
ALTER TABLE "ads" ADD COLUMN IF NOT EXISTS "approved_target_url" text;--> statement-breakpoint
ALTER TABLE "ads" ADD CONSTRAINT "ads_approved_target_http" CHECK ("ads"."approved_target_url" is null or "ads"."approved_target_url" ~* '^https?://[^/]');--> statement-breakpoint
UPDATE "ads" SET "approved_target_url" = "target_url" WHERE "review_status" = 'approved';--> statement-breakpoint
-- An approved image ad's picture, fetched once at review and served from our origin.
CREATE TABLE IF NOT EXISTS "ad_images" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source_url" text NOT NULL,
	"content_type" text NOT NULL,
	"bytes" bytea NOT NULL,
	"byte_size" integer NOT NULL,
	"sha256" text NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ad_images_type_known" CHECK ("ad_images"."content_type" in ('image/png', 'image/jpeg', 'image/gif', 'image/webp'))
);--> statement-breakpoint
ALTER TABLE "ads" ADD COLUMN IF NOT EXISTS "approved_image_id" uuid;--> statement-breakpoint
ALTER TABLE "ads" ADD CONSTRAINT "ads_approved_image_id_ad_images_id_fk" FOREIGN KEY ("approved_image_id") REFERENCES "public"."ad_images"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- The frequency cap counts ads served to a viewer in a UTC day, not charged impressions.
ALTER TABLE "ad_viewer_impressions" ADD COLUMN IF NOT EXISTS "served_day" date;--> statement-breakpoint
ALTER TABLE "ad_viewer_impressions" ADD COLUMN IF NOT EXISTS "served_today" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Today's spend on the campaign's own row: every draw checks it under the row lock it already takes, so
-- a daily budget holds at click time too, whatever the number of clicks in flight.
ALTER TABLE "ad_campaigns" ADD COLUMN IF NOT EXISTS "spend_day" date;--> statement-breakpoint
ALTER TABLE "ad_campaigns" ADD COLUMN IF NOT EXISTS "spend_today_millicents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "ad_campaigns" c SET "spend_day" = (now() AT TIME ZONE 'UTC')::date,
  "spend_today_millicents" = coalesce((SELECT sum(d."spend_millicents") FROM "ad_campaign_days" d WHERE d."campaign_id" = c."id" AND d."day" = (now() AT TIME ZONE 'UTC')::date), 0);--> statement-breakpoint
-- One charged unit (impression or click) per creative and network address per window.
CREATE TABLE IF NOT EXISTS "ad_address_charges" (
	"ad_id" uuid NOT NULL,
	"address_key" text NOT NULL,
	"last_charged_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ad_address_charges_ad_id_address_key_pk" PRIMARY KEY("ad_id","address_key")
);--> statement-breakpoint
ALTER TABLE "ad_address_charges" ADD CONSTRAINT "ad_address_charges_ad_id_ads_id_fk" FOREIGN KEY ("ad_id") REFERENCES "public"."ads"("id") ON DELETE cascade ON UPDATE no action;
