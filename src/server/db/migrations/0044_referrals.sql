-- Referrals that pay (docs/product.md#referrals, docs/decisions/0332-referral-rewards-from-the-ledger.md).
-- Expand-only: three ledger kinds, three new tables the previous release never reads, and a referral row
-- for every account that already names its referrer (users.referred_by).
ALTER TABLE "credit_ledger_entries" DROP CONSTRAINT "credit_ledger_entries_kind_known";--> statement-breakpoint
ALTER TABLE "credit_ledger_entries" ADD CONSTRAINT "credit_ledger_entries_kind_known" CHECK ("credit_ledger_entries"."kind" in ('payment', 'reward', 'adjustment', 'spend', 'refund', 'settlement', 'forfeit', 'referral_reward', 'welcome_bonus', 'referral_clawback'));--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "referrals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"referrer_id" uuid NOT NULL,
	"referred_id" uuid NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text DEFAULT 'joined' NOT NULL,
	"refusal_reason" text,
	"refusal_note" text,
	"signals" jsonb,
	"qualified_at" timestamp with time zone,
	"refused_at" timestamp with time zone,
	"decided_by" uuid,
	CONSTRAINT "referrals_status_known" CHECK ("referrals"."status" in ('joined', 'qualified', 'rewarded', 'refused')),
	CONSTRAINT "referrals_refusal_reason_known" CHECK ("referrals"."refusal_reason" is null or "referrals"."refusal_reason" in ('same_account', 'same_email', 'same_device', 'same_address', 'same_payout_address', 'refused_by_staff', 'reversed_by_staff')),
	CONSTRAINT "referrals_refused_has_reason" CHECK (("referrals"."status" = 'refused') = ("referrals"."refusal_reason" is not null))
);--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_referrer_id_users_id_fk" FOREIGN KEY ("referrer_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_referred_id_users_id_fk" FOREIGN KEY ("referred_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "referrals_referred_key" ON "referrals" USING btree ("referred_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "referrals_referrer_joined_idx" ON "referrals" USING btree ("referrer_id","joined_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "referrals_joined_idx" ON "referrals" USING btree ("joined_at");--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "referral_rewards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"referral_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"beneficiary_id" uuid NOT NULL,
	"payment_id" uuid NOT NULL,
	"base_cents" bigint NOT NULL,
	"share_basis_points" integer,
	"amount_cents" bigint NOT NULL,
	"state" text NOT NULL,
	"earned_day" date NOT NULL,
	"release_at" timestamp with time zone NOT NULL,
	"paid_entry_id" uuid,
	"paid_at" timestamp with time zone,
	"taken_back_cents" bigint DEFAULT 0 NOT NULL,
	"owed_cents" bigint DEFAULT 0 NOT NULL,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "referral_rewards_kind_known" CHECK ("referral_rewards"."kind" in ('referrer_share', 'welcome_bonus')),
	CONSTRAINT "referral_rewards_state_known" CHECK ("referral_rewards"."state" in ('held', 'paid', 'clawed_back', 'cancelled')),
	CONSTRAINT "referral_rewards_amount_positive" CHECK ("referral_rewards"."amount_cents" > 0)
);--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_referral_id_referrals_id_fk" FOREIGN KEY ("referral_id") REFERENCES "public"."referrals"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_beneficiary_id_users_id_fk" FOREIGN KEY ("beneficiary_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "referral_rewards_payment_kind_key" ON "referral_rewards" USING btree ("payment_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "referral_rewards_one_welcome_key" ON "referral_rewards" USING btree ("referral_id") WHERE "referral_rewards"."kind" = 'welcome_bonus';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "referral_rewards_referral_idx" ON "referral_rewards" USING btree ("referral_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "referral_rewards_beneficiary_day_idx" ON "referral_rewards" USING btree ("beneficiary_id","earned_day");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "referral_rewards_held_idx" ON "referral_rewards" USING btree ("release_at") WHERE "referral_rewards"."state" = 'held';--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "referral_settings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"share_basis_points" integer NOT NULL,
	"reward_days" integer NOT NULL,
	"cap_per_referred_cents" bigint NOT NULL,
	"hold_days" integer NOT NULL,
	"daily_cap_cents" bigint NOT NULL,
	"lifetime_cap_cents" bigint NOT NULL,
	"welcome_bonus_cents" bigint NOT NULL,
	"changed_by" uuid,
	"changed_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	CONSTRAINT "referral_settings_in_range" CHECK ("referral_settings"."share_basis_points" between 0 and 5000 and "referral_settings"."reward_days" between 1 and 3650 and "referral_settings"."hold_days" between 0 and 365 and "referral_settings"."cap_per_referred_cents" >= 0 and "referral_settings"."daily_cap_cents" >= 0 and "referral_settings"."lifetime_cap_cents" >= 0 and "referral_settings"."welcome_bonus_cents" >= 0)
);--> statement-breakpoint
ALTER TABLE "referral_settings" ADD CONSTRAINT "referral_settings_changed_by_users_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "referral_settings_changed_idx" ON "referral_settings" USING btree ("changed_at");--> statement-breakpoint
INSERT INTO "referrals" ("referrer_id", "referred_id", "joined_at")
SELECT u."referred_by", u."id", u."created_at" FROM "users" u
WHERE u."referred_by" IS NOT NULL AND u."referred_by" <> u."id" AND EXISTS (SELECT 1 FROM "users" r WHERE r."id" = u."referred_by")
ON CONFLICT DO NOTHING;
