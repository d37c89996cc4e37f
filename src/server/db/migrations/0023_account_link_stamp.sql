-- One-time account links bound to the account's state (decision 0200). Every account has a security
-- stamp that a password reset, a password change, a confirmed change of address, disabling the account
-- and a staff reset of two-factor raise; a link records the stamp it was issued under and works only
-- while the account still has it.
ALTER TABLE "users" ADD COLUMN "security_stamp" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "account_tokens" ADD COLUMN "security_stamp" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- Links still outstanding now were issued before stamps existed: those older than the account's last
-- password change, and those of a disabled account, get a stamp the account never has (void).
UPDATE "account_tokens" AS t SET "security_stamp" = -1
FROM "users" AS u
WHERE u."id" = t."user_id"
  AND t."used_at" IS NULL
  AND (u."disabled_at" IS NOT NULL OR (u."password_changed_at" IS NOT NULL AND u."password_changed_at" >= t."created_at"));
