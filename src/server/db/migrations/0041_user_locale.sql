-- The language a person chose (docs/decisions/0326-one-catalogue-per-language.md). Expand-only: a
-- nullable column the previous release never reads; null means "never chosen", so no backfill.
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "locale" text;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_locale_known" CHECK ("users"."locale" in ('en', 'es', 'ru', 'de'));
