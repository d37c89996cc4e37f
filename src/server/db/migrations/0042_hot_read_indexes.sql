-- Indexes under the staff console's lists and the user search (docs/performance.md#queries-that-stay-flat):
-- each read a whole table before, which src/server/test/query-plans.test.ts now refuses. Expand-only.
-- pg_trgm is a trusted extension (PostgreSQL 13+): the database's owner may create it; the embedded
-- database loads it in src/server/db/client.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_username_trgm_idx" ON "users" USING gin ("username" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_created_idx" ON "users" ("created_at" DESC, "id" DESC);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payments_created_idx" ON "payments" ("created_at" DESC, "id" DESC);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "exchanges_created_idx" ON "exchanges" ("created_at" DESC, "id" DESC);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "tickets_last_message_idx" ON "tickets" ("last_message_at" DESC, "id" DESC);
