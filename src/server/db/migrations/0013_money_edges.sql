-- Settlement entries: a credit that pays an outstanding amount first (docs/decisions/0120).
ALTER TABLE "credit_ledger_entries" DROP CONSTRAINT "credit_ledger_entries_kind_known";
--> statement-breakpoint
ALTER TABLE "credit_ledger_entries" ADD CONSTRAINT "credit_ledger_entries_kind_known" CHECK ("credit_ledger_entries"."kind" in ('payment', 'reward', 'adjustment', 'spend', 'refund', 'settlement'));
--> statement-breakpoint
-- What a reversal (refund, chargeback) could not take back from the balance: owed by the account
-- and settled by its later credits, oldest first.
CREATE TABLE "credit_debts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"reference" text NOT NULL,
	"payment_id" uuid,
	"reason" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"outstanding_cents" bigint NOT NULL,
	"description" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "credit_debts_amount_positive" CHECK ("credit_debts"."amount_cents" > 0),
	CONSTRAINT "credit_debts_outstanding_within_amount" CHECK ("credit_debts"."outstanding_cents" >= 0 AND "credit_debts"."outstanding_cents" <= "credit_debts"."amount_cents")
);
--> statement-breakpoint
ALTER TABLE "credit_debts" ADD CONSTRAINT "credit_debts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "credit_debts" ADD CONSTRAINT "credit_debts_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "credit_debts_reference_key" ON "credit_debts" USING btree ("reference");
--> statement-breakpoint
CREATE INDEX "credit_debts_user_created_idx" ON "credit_debts" USING btree ("user_id","created_at");
--> statement-breakpoint
CREATE INDEX "credit_debts_outstanding_idx" ON "credit_debts" USING btree ("user_id") WHERE "credit_debts"."outstanding_cents" > 0;
