-- Business hours and SLA targets (docs/decisions/0292). One calendar row (id 1), local holiday dates,
-- and per-priority targets in business minutes (null: no target for that priority).
CREATE TABLE "support_calendar" (
  "id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
  "time_zone" text DEFAULT 'UTC' NOT NULL,
  "days" integer[] DEFAULT '{1,2,3,4,5}'::integer[] NOT NULL,
  "start_minute" integer DEFAULT 540 NOT NULL,
  "end_minute" integer DEFAULT 1020 NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  CONSTRAINT "support_calendar_single_row" CHECK ("id" = 1),
  CONSTRAINT "support_calendar_window" CHECK ("start_minute" >= 0 AND "end_minute" <= 1440 AND "start_minute" < "end_minute")
);
--> statement-breakpoint
INSERT INTO "support_calendar" ("id") VALUES (1);
--> statement-breakpoint
CREATE TABLE "support_holidays" (
  "day" date PRIMARY KEY NOT NULL,
  "name" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "support_sla_targets" (
  "priority" text PRIMARY KEY NOT NULL,
  "first_response_minutes" integer,
  "resolution_minutes" integer,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "support_sla_targets_priority_known" CHECK ("priority" in ('low', 'normal', 'high', 'urgent')),
  CONSTRAINT "support_sla_targets_positive" CHECK (
    ("first_response_minutes" IS NULL OR "first_response_minutes" > 0) AND
    ("resolution_minutes" IS NULL OR "resolution_minutes" > 0)
  )
);
--> statement-breakpoint
-- What a new installation starts with, in business minutes: urgent 1 h / 8 h, high 4 h / 16 h,
-- normal 8 h / 40 h, low 16 h / 80 h.
INSERT INTO "support_sla_targets" ("priority", "first_response_minutes", "resolution_minutes") VALUES
  ('urgent', 60, 480), ('high', 240, 960), ('normal', 480, 2400), ('low', 960, 4800);
