-- SLA breaches (docs/decisions/0293): one row per ticket and kind, written by the breach job when a
-- first-response or resolution target falls due unmet. The unique key is what makes the notice go out
-- once, however many instances run the job: only the insert that wins notifies.
CREATE TABLE "support_sla_breaches" (
  "ticket_id" uuid NOT NULL REFERENCES "tickets"("id") ON DELETE CASCADE,
  "kind" text NOT NULL,
  "due_at" timestamp with time zone NOT NULL,
  "recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "support_sla_breaches_pkey" PRIMARY KEY ("ticket_id", "kind"),
  CONSTRAINT "support_sla_breaches_kind_known" CHECK ("kind" in ('first_response', 'resolution'))
);
