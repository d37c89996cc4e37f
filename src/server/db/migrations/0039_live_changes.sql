-- The live channel (docs/decisions/0316-one-live-channel.md): every change a person can see on a screen
-- is told to their open streams on every instance, on commit, whatever made it (a request, a job, the
-- CLI). Payload `live:<topic>:<recipient>`, the recipient a user id or `g<guest id>` as for the
-- notifications' `n:` keys. PostgreSQL folds identical payloads of one transaction into one, so a batch
-- of rows of one owner costs one message. An update that changed nothing is not told.
CREATE FUNCTION olympus_notify_live() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r jsonb;
BEGIN
  IF TG_OP = 'DELETE' THEN
    r := to_jsonb(OLD);
  ELSE
    r := to_jsonb(NEW);
  END IF;
  -- Compared as jsonb: a row with a json column has no equality of its own.
  IF TG_OP = 'UPDATE' AND r = to_jsonb(OLD) THEN
    RETURN NULL;
  END IF;
  IF r->>'user_id' IS NOT NULL THEN
    PERFORM pg_notify('olympus_invalidate', 'live:' || TG_ARGV[0] || ':' || (r->>'user_id'));
  END IF;
  IF r->>'owner_id' IS NOT NULL THEN
    PERFORM pg_notify('olympus_invalidate', 'live:' || TG_ARGV[0] || ':' || (r->>'owner_id'));
  END IF;
  IF r->>'guest_id' IS NOT NULL THEN
    PERFORM pg_notify('olympus_invalidate', 'live:' || TG_ARGV[0] || ':g' || (r->>'guest_id'));
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Every balance change writes one ledger entry: the balance, the credit history and receipts.
CREATE TRIGGER credit_ledger_entries_live
  AFTER INSERT OR UPDATE OR DELETE ON credit_ledger_entries
  FOR EACH ROW EXECUTE FUNCTION olympus_notify_live('credits');
--> statement-breakpoint
CREATE TRIGGER payments_live
  AFTER INSERT OR UPDATE OR DELETE ON payments
  FOR EACH ROW EXECUTE FUNCTION olympus_notify_live('payments');
--> statement-breakpoint
CREATE TRIGGER exchanges_live
  AFTER INSERT OR UPDATE OR DELETE ON exchanges
  FOR EACH ROW EXECUTE FUNCTION olympus_notify_live('exchanges');
--> statement-breakpoint
CREATE TRIGGER orders_live
  AFTER INSERT OR UPDATE OR DELETE ON orders
  FOR EACH ROW EXECUTE FUNCTION olympus_notify_live('orders');
--> statement-breakpoint
CREATE TRIGGER tickets_live
  AFTER INSERT OR UPDATE OR DELETE ON tickets
  FOR EACH ROW EXECUTE FUNCTION olympus_notify_live('tickets');
--> statement-breakpoint
CREATE TRIGGER ad_campaigns_live
  AFTER INSERT OR UPDATE OR DELETE ON ad_campaigns
  FOR EACH ROW EXECUTE FUNCTION olympus_notify_live('campaigns');
