-- Four eyes on large balance adjustments (docs/security.md#staff-powers): an adjustment of
-- ADJUSTMENT_APPROVAL_CENTS or more is a request until a second admin approves it; only then is it posted.
-- Expand-only: a new table the previous release never reads.
CREATE TABLE IF NOT EXISTS "credit_adjustment_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"reason" text NOT NULL,
	"customer_note" text,
	"idempotency_key" text,
	"requested_by" uuid NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"decision_note" text,
	"ledger_entry_id" uuid,
	CONSTRAINT "credit_adjustment_requests_amount_nonzero" CHECK ("credit_adjustment_requests"."amount_cents" <> 0),
	CONSTRAINT "credit_adjustment_requests_status_known" CHECK ("credit_adjustment_requests"."status" in ('pending', 'approved', 'rejected')),
	CONSTRAINT "credit_adjustment_requests_decided" CHECK (("credit_adjustment_requests"."status" = 'pending') = ("credit_adjustment_requests"."decided_by" is null))
);--> statement-breakpoint
ALTER TABLE "credit_adjustment_requests" ADD CONSTRAINT "credit_adjustment_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_adjustment_requests" ADD CONSTRAINT "credit_adjustment_requests_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_adjustment_requests" ADD CONSTRAINT "credit_adjustment_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_adjustment_requests" ADD CONSTRAINT "credit_adjustment_requests_ledger_entry_id_fk" FOREIGN KEY ("ledger_entry_id") REFERENCES "public"."credit_ledger_entries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "credit_adjustment_requests_idempotency_key" ON "credit_adjustment_requests" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "credit_adjustment_requests_status_idx" ON "credit_adjustment_requests" USING btree ("status","requested_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "credit_adjustment_requests_user_idx" ON "credit_adjustment_requests" USING btree ("user_id","requested_at");
