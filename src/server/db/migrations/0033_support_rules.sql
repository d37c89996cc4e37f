-- Automation rules of the support desk, their runs, and auto-close of resolved tickets
-- (docs/decisions/0294, docs/support-rules.md).
CREATE TABLE "support_rules" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "name" text NOT NULL,
  "enabled" boolean DEFAULT true NOT NULL,
  "trigger" jsonb NOT NULL,
  "conditions" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "actions" jsonb NOT NULL,
  "created_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- One row per (rule, ticket, triggering event): the rule runs at most once for that event, whatever
-- the number of instances or job retries. The rule's name is kept for the log after a delete.
CREATE TABLE "support_rule_runs" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "rule_id" uuid REFERENCES "support_rules"("id") ON DELETE SET NULL,
  "rule_name" text NOT NULL,
  "ticket_id" uuid NOT NULL REFERENCES "tickets"("id") ON DELETE CASCADE,
  "event_key" text NOT NULL,
  "actions" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "support_rule_runs_once" ON "support_rule_runs" ("rule_id", "ticket_id", "event_key");
--> statement-breakpoint
CREATE INDEX "support_rule_runs_recent" ON "support_rule_runs" ("created_at");
--> statement-breakpoint
-- Close resolved tickets after this many days without an answer from the requester; 0 = never.
ALTER TABLE "support_calendar" ADD COLUMN "auto_close_days" integer DEFAULT 7 NOT NULL;
--> statement-breakpoint
ALTER TABLE "support_calendar" ADD CONSTRAINT "support_calendar_auto_close_days" CHECK ("auto_close_days" BETWEEN 0 AND 365);
--> statement-breakpoint
-- A ticket closed by auto-close, once: the row is also the rating request's at-most-once key.
CREATE TABLE "support_auto_closes" (
  "ticket_id" uuid PRIMARY KEY NOT NULL REFERENCES "tickets"("id") ON DELETE CASCADE,
  "closed_at" timestamp with time zone DEFAULT now() NOT NULL
);
