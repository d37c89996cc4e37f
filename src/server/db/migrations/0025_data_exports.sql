-- A copy of my data (decision 0250): one row per requested export. The job builds the ZIP and stores it
-- under ATTACHMENTS_DIR/exports by a random name (`storage_key`); the prune job deletes the file and
-- the row 7 days after it was ready. At most one request a day per account, checked under the user's
-- row lock.
CREATE TABLE "data_exports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"storage_key" text,
	"size_bytes" integer,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ready_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	CONSTRAINT "data_exports_status" CHECK ("status" IN ('pending', 'ready', 'failed')),
	CONSTRAINT "data_exports_progress" CHECK ("progress" BETWEEN 0 AND 100),
	CONSTRAINT "data_exports_ready_has_file" CHECK ("status" <> 'ready' OR ("storage_key" IS NOT NULL AND "ready_at" IS NOT NULL AND "expires_at" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "data_exports" ADD CONSTRAINT "data_exports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "data_exports_user_requested_idx" ON "data_exports" USING btree ("user_id","requested_at");
--> statement-breakpoint
CREATE INDEX "data_exports_expires_idx" ON "data_exports" USING btree ("expires_at");
