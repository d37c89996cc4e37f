-- Closing an account (docs/decisions/0255). A closure asked for by its owner stamps `closing_at` and
-- `erasure_at` (14 days later); restoring clears both. The erasure job sets `erased_at` as its last
-- step, once everything personal is gone; the row itself stays, as `deleted-<id>`, because the ledger,
-- payments, orders and charges point at it.
ALTER TABLE "users" ADD COLUMN "closing_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "erasure_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "erased_at" timestamp with time zone;
--> statement-breakpoint
CREATE INDEX "users_erasure_due_idx" ON "users" ("erasure_at") WHERE "erasure_at" IS NOT NULL AND "erased_at" IS NULL;
--> statement-breakpoint
-- The balance an erased account leaves behind is written off by one `forfeit` entry.
ALTER TABLE "credit_ledger_entries" DROP CONSTRAINT "credit_ledger_entries_kind_known";
--> statement-breakpoint
ALTER TABLE "credit_ledger_entries" ADD CONSTRAINT "credit_ledger_entries_kind_known" CHECK ("credit_ledger_entries"."kind" in ('payment', 'reward', 'adjustment', 'spend', 'refund', 'settlement', 'forfeit'));
