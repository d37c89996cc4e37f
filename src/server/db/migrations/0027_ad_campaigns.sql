-- Self-serve ad campaigns paid with credits (docs/decisions/0280, 0281). A campaign reserves its whole
-- budget from the owner's balance when it starts (a `spend` entry); delivery draws from
-- `remaining_millicents` with one atomic UPDATE per impression batch; what is left when it ends comes
-- back once as a `refund` entry. Creatives are rows of `ads` tied to a campaign and reviewed by staff.
CREATE TABLE "ad_campaigns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"name" text NOT NULL,
	"placements" text[] NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"price_model" text NOT NULL,
	"price_cents" integer NOT NULL,
	"unit_millicents" bigint NOT NULL,
	"budget_cents" bigint NOT NULL,
	"daily_budget_cents" bigint,
	"frequency_cap" integer,
	"remaining_millicents" bigint NOT NULL,
	"last_draw_units" bigint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"end_reason" text,
	"refunded_cents" bigint,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ad_campaigns_price_model_known" CHECK ("ad_campaigns"."price_model" in ('cpm', 'cpc')),
	CONSTRAINT "ad_campaigns_status_known" CHECK ("ad_campaigns"."status" in ('active', 'paused', 'ended')),
	CONSTRAINT "ad_campaigns_price_positive" CHECK ("ad_campaigns"."price_cents" > 0),
	CONSTRAINT "ad_campaigns_unit_matches" CHECK ("ad_campaigns"."unit_millicents" = CASE WHEN "ad_campaigns"."price_model" = 'cpm' THEN "ad_campaigns"."price_cents"::bigint ELSE "ad_campaigns"."price_cents"::bigint * 1000 END),
	CONSTRAINT "ad_campaigns_budget_positive" CHECK ("ad_campaigns"."budget_cents" > 0),
	CONSTRAINT "ad_campaigns_daily_positive" CHECK ("ad_campaigns"."daily_budget_cents" is null or "ad_campaigns"."daily_budget_cents" > 0),
	CONSTRAINT "ad_campaigns_cap_positive" CHECK ("ad_campaigns"."frequency_cap" is null or "ad_campaigns"."frequency_cap" > 0),
	CONSTRAINT "ad_campaigns_remaining_in_budget" CHECK ("ad_campaigns"."remaining_millicents" >= 0 and "ad_campaigns"."remaining_millicents" <= "ad_campaigns"."budget_cents" * 1000),
	CONSTRAINT "ad_campaigns_schedule_order" CHECK ("ad_campaigns"."ends_at" > "ad_campaigns"."starts_at"),
	CONSTRAINT "ad_campaigns_ended_empty" CHECK ("ad_campaigns"."status" <> 'ended' or "ad_campaigns"."remaining_millicents" = 0)
);
--> statement-breakpoint
ALTER TABLE "ad_campaigns" ADD CONSTRAINT "ad_campaigns_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ad_campaigns_owner_idx" ON "ad_campaigns" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "ad_campaigns_status_idx" ON "ad_campaigns" USING btree ("status","ends_at");--> statement-breakpoint
ALTER TABLE "ads" ADD COLUMN "campaign_id" uuid;--> statement-breakpoint
ALTER TABLE "ads" ADD COLUMN "review_status" text DEFAULT 'approved' NOT NULL;--> statement-breakpoint
ALTER TABLE "ads" ADD COLUMN "review_reason" text;--> statement-breakpoint
ALTER TABLE "ads" ADD COLUMN "reviewed_by" uuid;--> statement-breakpoint
ALTER TABLE "ads" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ads" ADD CONSTRAINT "ads_review_status_known" CHECK ("ads"."review_status" in ('pending', 'approved', 'rejected'));--> statement-breakpoint
ALTER TABLE "ads" ADD CONSTRAINT "ads_campaign_id_ad_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."ad_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ads" ADD CONSTRAINT "ads_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ads_campaign_idx" ON "ads" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX "ads_review_idx" ON "ads" USING btree ("review_status");--> statement-breakpoint
CREATE TABLE "ad_campaign_days" (
	"ad_id" uuid NOT NULL,
	"day" date NOT NULL,
	"campaign_id" uuid NOT NULL,
	"served" integer DEFAULT 0 NOT NULL,
	"viewable" integer DEFAULT 0 NOT NULL,
	"invalid" integer DEFAULT 0 NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	"spend_millicents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "ad_campaign_days_ad_id_day_pk" PRIMARY KEY("ad_id","day")
);
--> statement-breakpoint
ALTER TABLE "ad_campaign_days" ADD CONSTRAINT "ad_campaign_days_ad_id_ads_id_fk" FOREIGN KEY ("ad_id") REFERENCES "public"."ads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_campaign_days" ADD CONSTRAINT "ad_campaign_days_campaign_id_ad_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."ad_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ad_campaign_days_campaign_idx" ON "ad_campaign_days" USING btree ("campaign_id","day");--> statement-breakpoint
CREATE TABLE "ad_campaign_caps" (
	"campaign_id" uuid NOT NULL,
	"viewer_key" text NOT NULL,
	"day" date NOT NULL,
	"impressions" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "ad_campaign_caps_campaign_id_viewer_key_day_pk" PRIMARY KEY("campaign_id","viewer_key","day")
);
--> statement-breakpoint
ALTER TABLE "ad_campaign_caps" ADD CONSTRAINT "ad_campaign_caps_campaign_id_ad_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."ad_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "ad_serves" (
	"ad_id" uuid NOT NULL,
	"viewer_key" text NOT NULL,
	"served_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ad_serves_ad_id_viewer_key_pk" PRIMARY KEY("ad_id","viewer_key")
);
--> statement-breakpoint
ALTER TABLE "ad_serves" ADD CONSTRAINT "ad_serves_ad_id_ads_id_fk" FOREIGN KEY ("ad_id") REFERENCES "public"."ads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "ad_paid_clicks" (
	"ad_id" uuid NOT NULL,
	"viewer_key" text NOT NULL,
	"last_charged_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ad_paid_clicks_ad_id_viewer_key_pk" PRIMARY KEY("ad_id","viewer_key")
);
--> statement-breakpoint
ALTER TABLE "ad_paid_clicks" ADD CONSTRAINT "ad_paid_clicks_ad_id_ads_id_fk" FOREIGN KEY ("ad_id") REFERENCES "public"."ads"("id") ON DELETE cascade ON UPDATE no action;
