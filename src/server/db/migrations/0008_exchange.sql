CREATE TABLE "exchanges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"guest_id" text,
	"provider" text DEFAULT 'changenow' NOT NULL,
	"provider_exchange_id" text NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"from_currency" text NOT NULL,
	"to_currency" text NOT NULL,
	"amount_from" text NOT NULL,
	"expected_amount_to" text,
	"amount_sent" text,
	"amount_received" text,
	"payin_address" text NOT NULL,
	"payin_extra_id" text,
	"payout_address" text NOT NULL,
	"payout_extra_id" text,
	"payin_hash" text,
	"payout_hash" text,
	"usd_value_cents" bigint NOT NULL,
	"reward_cents" bigint NOT NULL,
	"earned_reward_cents" bigint,
	"reward_mode" text NOT NULL,
	"claim_code_hash" text,
	"claim_deadline" timestamp with time zone,
	"reward_user_id" uuid,
	"reward_credited_at" timestamp with time zone,
	"provider_data" jsonb,
	"last_checked_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchanges_owner_present" CHECK ("exchanges"."user_id" IS NOT NULL OR "exchanges"."guest_id" IS NOT NULL),
	CONSTRAINT "exchanges_reward_mode_known" CHECK ("exchanges"."reward_mode" in ('direct', 'claim')),
	CONSTRAINT "exchanges_claim_has_code" CHECK ("exchanges"."reward_mode" <> 'claim' OR ("exchanges"."claim_code_hash" IS NOT NULL AND "exchanges"."claim_deadline" IS NOT NULL)),
	CONSTRAINT "exchanges_reward_non_negative" CHECK ("exchanges"."reward_cents" >= 0 AND "exchanges"."usd_value_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "sandbox_swap_exchanges" (
	"id" text PRIMARY KEY NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "exchanges" ADD CONSTRAINT "exchanges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchanges" ADD CONSTRAINT "exchanges_reward_user_id_users_id_fk" FOREIGN KEY ("reward_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "exchanges_provider_exchange_key" ON "exchanges" USING btree ("provider","provider_exchange_id");--> statement-breakpoint
CREATE INDEX "exchanges_user_created_idx" ON "exchanges" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "exchanges_guest_created_idx" ON "exchanges" USING btree ("guest_id","created_at");--> statement-breakpoint
CREATE INDEX "exchanges_status_idx" ON "exchanges" USING btree ("status");