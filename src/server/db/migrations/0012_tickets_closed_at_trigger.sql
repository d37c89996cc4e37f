-- When a ticket was resolved or closed (the console counts open tickets per day: decision 0190). A trigger keeps
-- closed_at so every path that changes a status (requester close or reopen, a reply that reopens, staff
-- updates) records it without having to remember: set when a ticket becomes resolved or closed from
-- open or pending, kept from resolved to closed (and back), cleared when it goes back to open or pending.
CREATE FUNCTION tickets_track_closed_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status NOT IN ('resolved', 'closed') THEN
    NEW.closed_at := NULL;
  ELSIF TG_OP = 'INSERT' THEN
    NEW.closed_at := coalesce(NEW.closed_at, now());
  ELSIF OLD.status NOT IN ('resolved', 'closed') THEN
    NEW.closed_at := now();
  ELSE
    NEW.closed_at := coalesce(NEW.closed_at, now());
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_closed_at_on_insert
  BEFORE INSERT ON tickets
  FOR EACH ROW EXECUTE FUNCTION tickets_track_closed_at();
--> statement-breakpoint
CREATE TRIGGER tickets_closed_at_on_status
  BEFORE UPDATE OF status ON tickets
  FOR EACH ROW EXECUTE FUNCTION tickets_track_closed_at();
--> statement-breakpoint
-- Tickets resolved or closed before this column existed: their last change is the best record there is.
UPDATE tickets SET closed_at = updated_at WHERE status IN ('resolved', 'closed') AND closed_at IS NULL;
