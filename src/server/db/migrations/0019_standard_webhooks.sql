-- Standard Webhooks signatures, a day-and-a-half retry schedule, manual replay, auto-disable and secret
-- rotation with a 24-hour overlap (docs/decisions/0180-standard-webhooks.md).
ALTER TABLE "webhooks" ADD COLUMN "previous_secret_ciphertext" text;
--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "previous_secret_expires_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "legacy_secret" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
-- Secrets made before this migration are base64url text; they keep their 32 random bytes as the key.
UPDATE "webhooks" SET "legacy_secret" = true;
--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "failing_since" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "disabled_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "auto_attempts" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE "webhook_deliveries" SET "auto_attempts" = "attempts";
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "next_attempt_at" timestamp with time zone DEFAULT now();
--> statement-breakpoint
UPDATE "webhook_deliveries" SET "next_attempt_at" = NULL WHERE "status" <> 'pending';
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "claimed_until" timestamp with time zone;
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "status" = 'pending';
--> statement-breakpoint
ALTER TABLE "webhook_delivery_attempts" ADD COLUMN "trigger" text DEFAULT 'automatic' NOT NULL;
--> statement-breakpoint
ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_trigger" CHECK ("trigger" IN ('automatic', 'manual'));
--> statement-breakpoint
ALTER TABLE "webhook_delivery_attempts" ADD COLUMN "response_excerpt" text;
