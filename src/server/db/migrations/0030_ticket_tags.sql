-- Tags on tickets (docs/decisions/0292): set by staff and by automation rules, read by rule
-- conditions and by the support reports. Lower-case words, kept unique by the code that writes them.
ALTER TABLE "tickets" ADD COLUMN "tags" text[] DEFAULT '{}'::text[] NOT NULL;
--> statement-breakpoint
CREATE INDEX "tickets_tags_idx" ON "tickets" USING gin ("tags");
