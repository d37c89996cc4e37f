-- Exchange: refund address and memo, fixed-rate quotes next to floating ones
-- (docs/decisions/0185-exchange-fixed-rates-refunds-and-limits.md).
ALTER TABLE "exchanges" ADD COLUMN "refund_address" text;
--> statement-breakpoint
ALTER TABLE "exchanges" ADD COLUMN "refund_extra_id" text;
--> statement-breakpoint
ALTER TABLE "exchanges" ADD COLUMN "rate_type" text DEFAULT 'floating' NOT NULL;
--> statement-breakpoint
ALTER TABLE "exchanges" ADD COLUMN "rate_id" text;
--> statement-breakpoint
ALTER TABLE "exchanges" ADD COLUMN "rate_valid_until" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "exchanges" ADD CONSTRAINT "exchanges_rate_type_known" CHECK ("rate_type" IN ('floating', 'fixed') AND ("rate_type" = 'floating' OR "rate_id" IS NOT NULL));
--> statement-breakpoint
-- Status page: scheduled maintenance windows and email subscriptions
-- (docs/decisions/0186-status-maintenance-subscriptions-feed.md).
CREATE TABLE "status_maintenances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "status_maintenances_window" CHECK ("ends_at" > "starts_at")
);
--> statement-breakpoint
ALTER TABLE "status_maintenances" ADD CONSTRAINT "status_maintenances_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "status_maintenances_ends_idx" ON "status_maintenances" USING btree ("ends_at");
--> statement-breakpoint
CREATE TABLE "status_subscribers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "status_subscribers_email_key" UNIQUE("email")
);
