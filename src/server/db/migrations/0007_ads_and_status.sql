CREATE TABLE "ad_clicks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ad_clicks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"ad_id" uuid NOT NULL,
	"viewer_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ad_impressions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ad_impressions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"ad_id" uuid NOT NULL,
	"viewer_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ad_viewer_impressions" (
	"ad_id" uuid NOT NULL,
	"viewer_key" text NOT NULL,
	"last_counted_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ad_viewer_impressions_ad_id_viewer_key_pk" PRIMARY KEY("ad_id","viewer_key")
);
--> statement-breakpoint
CREATE TABLE "ads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"placement" text NOT NULL,
	"kind" text DEFAULT 'text' NOT NULL,
	"title" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"image_url" text,
	"image_alt" text DEFAULT '' NOT NULL,
	"target_url" text NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"weight" integer DEFAULT 1 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_by" uuid,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ads_kind_known" CHECK ("ads"."kind" in ('text', 'image')),
	CONSTRAINT "ads_weight_positive" CHECK ("ads"."weight" between 1 and 1000),
	CONSTRAINT "ads_target_http" CHECK ("ads"."target_url" ~* '^https?://[^/]'),
	CONSTRAINT "ads_image_https" CHECK ("ads"."image_url" is null or "ads"."image_url" ~* '^https://[^/]'),
	CONSTRAINT "ads_schedule_order" CHECK ("ads"."starts_at" is null or "ads"."ends_at" is null or "ads"."ends_at" > "ads"."starts_at")
);
--> statement-breakpoint
CREATE TABLE "status_checks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "status_checks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"component" text NOT NULL,
	"state" text NOT NULL,
	"latency_ms" integer,
	"detail" text,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "status_checks_state_known" CHECK ("status_checks"."state" in ('up', 'degraded', 'down'))
);
--> statement-breakpoint
CREATE TABLE "status_daily" (
	"component" text NOT NULL,
	"day" date NOT NULL,
	"up_count" integer DEFAULT 0 NOT NULL,
	"degraded_count" integer DEFAULT 0 NOT NULL,
	"down_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "status_daily_component_day_pk" PRIMARY KEY("component","day")
);
--> statement-breakpoint
CREATE TABLE "status_incident_updates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"incident_id" uuid NOT NULL,
	"status" text NOT NULL,
	"message" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "status_incidents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"impact" text NOT NULL,
	"status" text NOT NULL,
	"components" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "status_incidents_impact_known" CHECK ("status_incidents"."impact" in ('minor', 'major', 'critical')),
	CONSTRAINT "status_incidents_status_known" CHECK ("status_incidents"."status" in ('investigating', 'identified', 'monitoring', 'resolved'))
);
--> statement-breakpoint
ALTER TABLE "ad_clicks" ADD CONSTRAINT "ad_clicks_ad_id_ads_id_fk" FOREIGN KEY ("ad_id") REFERENCES "public"."ads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_impressions" ADD CONSTRAINT "ad_impressions_ad_id_ads_id_fk" FOREIGN KEY ("ad_id") REFERENCES "public"."ads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_viewer_impressions" ADD CONSTRAINT "ad_viewer_impressions_ad_id_ads_id_fk" FOREIGN KEY ("ad_id") REFERENCES "public"."ads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ads" ADD CONSTRAINT "ads_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ads" ADD CONSTRAINT "ads_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "status_incident_updates" ADD CONSTRAINT "status_incident_updates_incident_id_status_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."status_incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "status_incident_updates" ADD CONSTRAINT "status_incident_updates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "status_incidents" ADD CONSTRAINT "status_incidents_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ad_clicks_ad_time_idx" ON "ad_clicks" USING btree ("ad_id","created_at");--> statement-breakpoint
CREATE INDEX "ad_impressions_ad_time_idx" ON "ad_impressions" USING btree ("ad_id","created_at");--> statement-breakpoint
CREATE INDEX "ads_placement_idx" ON "ads" USING btree ("placement","active");--> statement-breakpoint
CREATE INDEX "status_checks_component_time_idx" ON "status_checks" USING btree ("component","checked_at");--> statement-breakpoint
CREATE INDEX "status_incident_updates_incident_idx" ON "status_incident_updates" USING btree ("incident_id","created_at");--> statement-breakpoint
CREATE INDEX "status_incidents_created_idx" ON "status_incidents" USING btree ("created_at");