-- Closing accounts that hold campaigns and late payments (docs/decisions/0304, 0305).
-- Expand-only: two new nullable/defaulted columns on users and a new table; the previous release reads
-- neither and its `SELECT *` of users is unaffected by extra columns.
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "closure_held_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "closure_removed_connections" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "late_payment_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"written_off_cents" bigint NOT NULL,
	"price_amount_cents" bigint NOT NULL,
	"pay_currency" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"refunded_at" timestamp with time zone,
	"refunded_by" uuid,
	"refund_note" text,
	CONSTRAINT "late_payment_refunds_written_off_positive" CHECK ("late_payment_refunds"."written_off_cents" >= 0)
);--> statement-breakpoint
ALTER TABLE "late_payment_refunds" ADD CONSTRAINT "late_payment_refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "late_payment_refunds" ADD CONSTRAINT "late_payment_refunds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "late_payment_refunds" ADD CONSTRAINT "late_payment_refunds_refunded_by_users_id_fk" FOREIGN KEY ("refunded_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "late_payment_refunds_payment_key" ON "late_payment_refunds" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "late_payment_refunds_open_idx" ON "late_payment_refunds" USING btree ("created_at") WHERE "late_payment_refunds"."refunded_at" IS NULL;
