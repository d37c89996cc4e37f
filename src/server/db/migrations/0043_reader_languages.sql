-- Status subscriptions and help articles in the reader's language
-- (docs/decisions/0328-server-messages-in-the-readers-language.md). Expand-only: a nullable column and a
-- new table the previous release never reads; a subscriber without a language is mailed in English.
ALTER TABLE "status_subscribers" ADD COLUMN IF NOT EXISTS "locale" text;--> statement-breakpoint
ALTER TABLE "status_subscribers" ADD CONSTRAINT "status_subscribers_locale_known" CHECK ("status_subscribers"."locale" in ('en', 'es', 'ru', 'de'));--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "help_article_translations" (
	"article_id" uuid NOT NULL,
	"locale" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "help_article_translations_article_id_locale_pk" PRIMARY KEY("article_id","locale"),
	CONSTRAINT "help_article_translations_locale_known" CHECK ("help_article_translations"."locale" in ('es', 'ru', 'de'))
);--> statement-breakpoint
ALTER TABLE "help_article_translations" ADD CONSTRAINT "help_article_translations_article_id_help_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."help_articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "help_article_translations" ADD CONSTRAINT "help_article_translations_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
