CREATE TABLE "credit_ledger_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"balance_after_cents" bigint NOT NULL,
	"kind" text NOT NULL,
	"reference" text NOT NULL,
	"description" text NOT NULL,
	"actor_id" uuid,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_ledger_entries_amount_nonzero" CHECK ("credit_ledger_entries"."amount_cents" <> 0),
	CONSTRAINT "credit_ledger_entries_balance_non_negative" CHECK ("credit_ledger_entries"."balance_after_cents" >= 0),
	CONSTRAINT "credit_ledger_entries_kind_known" CHECK ("credit_ledger_entries"."kind" in ('payment', 'reward', 'adjustment', 'spend', 'refund'))
);
--> statement-breakpoint
CREATE TABLE "sandbox_nowpayments_payments" (
	"payment_id" text PRIMARY KEY NOT NULL,
	"ipn_callback_url" text,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"provider" text DEFAULT 'nowpayments' NOT NULL,
	"provider_payment_id" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"price_amount_cents" bigint NOT NULL,
	"price_currency" text DEFAULT 'usd' NOT NULL,
	"pay_currency" text NOT NULL,
	"pay_amount" text,
	"pay_address" text,
	"payin_extra_id" text,
	"network" text,
	"fee_percent" integer NOT NULL,
	"fee_cents" bigint NOT NULL,
	"credits_cents" bigint NOT NULL,
	"credited_cents" bigint DEFAULT 0 NOT NULL,
	"actually_paid" text,
	"tx_hash" text,
	"parent_payment_id" text,
	"provider_data" jsonb,
	"failure_reason" text,
	"expires_at" timestamp with time zone NOT NULL,
	"last_checked_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_price_positive" CHECK ("payments"."price_amount_cents" > 0),
	CONSTRAINT "payments_credited_within_due" CHECK ("payments"."credited_cents" >= 0 AND "payments"."credited_cents" <= "payments"."credits_cents")
);
--> statement-breakpoint
ALTER TABLE "credit_ledger_entries" ADD CONSTRAINT "credit_ledger_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_ledger_entries_reference_key" ON "credit_ledger_entries" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "credit_ledger_entries_user_created_idx" ON "credit_ledger_entries" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_provider_payment_key" ON "payments" USING btree ("provider","provider_payment_id");--> statement-breakpoint
CREATE INDEX "payments_user_created_idx" ON "payments" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "payments_status_idx" ON "payments" USING btree ("status");