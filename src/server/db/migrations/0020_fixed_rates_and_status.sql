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
