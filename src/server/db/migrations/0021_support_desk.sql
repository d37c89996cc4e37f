-- Support desk (decision 0190): internal notes and merge notices, first response, merge, rating,
-- canned replies and attachments. Decision 0190.
ALTER TABLE "ticket_messages" ADD COLUMN "kind" text DEFAULT 'reply' NOT NULL;
--> statement-breakpoint
ALTER TABLE "ticket_messages" ADD CONSTRAINT "ticket_messages_kind_known" CHECK ("kind" in ('reply', 'internal', 'event'));
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "first_response_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "merged_into" uuid REFERENCES "tickets"("id") ON DELETE SET NULL;
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "rating" integer;
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "rating_comment" text;
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "rated_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_rating_range" CHECK ("rating" IS NULL OR "rating" BETWEEN 1 AND 5);
--> statement-breakpoint
UPDATE "tickets" t SET "first_response_at" = (SELECT min(m."created_at") FROM "ticket_messages" m WHERE m."ticket_id" = t."id" AND m."author" = 'staff');
--> statement-breakpoint
CREATE TABLE "ticket_canned_replies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"created_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ticket_id" uuid NOT NULL REFERENCES "tickets"("id") ON DELETE CASCADE,
	"message_id" uuid NOT NULL REFERENCES "ticket_messages"("id") ON DELETE CASCADE,
	"storage_key" text NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "ticket_attachments_ticket_idx" ON "ticket_attachments" ("ticket_id");
--> statement-breakpoint
CREATE INDEX "ticket_attachments_message_idx" ON "ticket_attachments" ("message_id");
