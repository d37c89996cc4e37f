-- Notifications (docs/decisions/0260-notifications.md): the in-app centre, the chat deliveries with
-- their at-most-once key, the preferences matrix and the channels turned off after a refusal.
CREATE TABLE "notifications" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "user_id" uuid REFERENCES "users"("id") ON DELETE CASCADE,
  "guest_id" text,
  "event" text NOT NULL,
  "event_key" text NOT NULL,
  "title" text NOT NULL,
  "body" text NOT NULL,
  "link" text NOT NULL,
  "read_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
  CONSTRAINT "notifications_recipient" CHECK ("user_id" IS NOT NULL OR "guest_id" IS NOT NULL)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_event_key" ON "notifications" ("event_key");
--> statement-breakpoint
CREATE INDEX "notifications_user_created_idx" ON "notifications" ("user_id", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "notifications_guest_created_idx" ON "notifications" ("guest_id", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "notifications_created_idx" ON "notifications" ("created_at");
--> statement-breakpoint
CREATE TABLE "notification_deliveries" (
  "event_key" text NOT NULL,
  "channel" text NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "event" text NOT NULL,
  "notice" jsonb NOT NULL,
  "status" text DEFAULT 'pending' NOT NULL,
  "attempts" integer DEFAULT 0 NOT NULL,
  "next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
  "last_error" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "last_attempt_at" timestamp with time zone,
  "sent_at" timestamp with time zone,
  CONSTRAINT "notification_deliveries_pkey" PRIMARY KEY ("event_key", "channel"),
  CONSTRAINT "notification_deliveries_status" CHECK ("status" IN ('pending', 'sending', 'sent', 'skipped', 'refused', 'failed'))
);
--> statement-breakpoint
CREATE INDEX "notification_deliveries_created_idx" ON "notification_deliveries" ("created_at");
--> statement-breakpoint
CREATE TABLE "notification_preferences" (
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "event" text NOT NULL,
  "channel" text NOT NULL,
  "enabled" boolean NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "notification_preferences_pkey" PRIMARY KEY ("user_id", "event", "channel")
);
--> statement-breakpoint
CREATE TABLE "notification_settings" (
  "user_id" uuid PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "low_balance_threshold_cents" bigint,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_channel_states" (
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "channel" text NOT NULL,
  "disabled_reason" text NOT NULL,
  "disabled_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "notification_channel_states_pkey" PRIMARY KEY ("user_id", "channel")
);
--> statement-breakpoint
-- Every change to a recipient's notifications is heard by every instance on commit (the bus of decision
-- 0170), so a stream held on one instance learns of a notice written on another: `n:<user id>` or
-- `n:g<guest id>`. PostgreSQL folds identical payloads of one transaction into one.
CREATE FUNCTION olympus_notify_notifications() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'DELETE' THEN
    r := OLD;
  ELSE
    r := NEW;
  END IF;
  IF r.user_id IS NOT NULL THEN
    PERFORM pg_notify('olympus_invalidate', 'n:' || r.user_id::text);
  ELSE
    PERFORM pg_notify('olympus_invalidate', 'n:g' || r.guest_id);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER notifications_notify
  AFTER INSERT OR UPDATE OR DELETE ON notifications
  FOR EACH ROW EXECUTE FUNCTION olympus_notify_notifications();
