-- House campaigns (docs/decisions/0283): campaigns staff run for the house. No account owns them and no
-- balance pays for them, so they have no owner; the admin who created one is kept in `created_by`.
-- Their budget is optional: without one, `budget_cents` and `remaining_millicents` are null and delivery
-- counts spend without limit; with one, it is drawn from exactly like a paid campaign's, but was never
-- reserved and is never refunded.
ALTER TABLE "ad_campaigns" ADD COLUMN "house" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ad_campaigns" ADD COLUMN "created_by" uuid;--> statement-breakpoint
ALTER TABLE "ad_campaigns" ADD CONSTRAINT "ad_campaigns_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_campaigns" ALTER COLUMN "owner_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "ad_campaigns" ALTER COLUMN "budget_cents" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "ad_campaigns" ALTER COLUMN "remaining_millicents" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "ad_campaigns" ADD CONSTRAINT "ad_campaigns_house_unowned" CHECK ("ad_campaigns"."house" = ("ad_campaigns"."owner_id" is null));--> statement-breakpoint
ALTER TABLE "ad_campaigns" ADD CONSTRAINT "ad_campaigns_paid_budgeted" CHECK ("ad_campaigns"."house" or ("ad_campaigns"."budget_cents" is not null and "ad_campaigns"."remaining_millicents" is not null));--> statement-breakpoint
ALTER TABLE "ad_campaigns" ADD CONSTRAINT "ad_campaigns_budget_both_or_none" CHECK (("ad_campaigns"."budget_cents" is null) = ("ad_campaigns"."remaining_millicents" is null));
