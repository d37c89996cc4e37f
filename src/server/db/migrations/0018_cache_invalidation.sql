-- decision 0170: long-lived per-instance caches of sessions, users and payment statuses, kept right by the
-- database itself. Every change that matters to a cached row sends its key on the `olympus_invalidate`
-- channel; PostgreSQL delivers it to every listening instance when the transaction commits (and never
-- if it rolls back), whatever made the change: the app on any instance, the CLI, or SQL typed by hand.
-- Keys: `s:<session id>`, `u:<user id>`, `p:<payment id>` (docs/decisions/0170-caches-invalidated-by-notify.md).
CREATE FUNCTION olympus_notify_invalidate() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed_id text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    changed_id := OLD.id::text;
  ELSE
    changed_id := NEW.id::text;
  END IF;
  PERFORM pg_notify('olympus_invalidate', TG_ARGV[0] || ':' || changed_id);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Any change to a user row (role, disabled, credits, names): the cached row is dropped everywhere.
CREATE TRIGGER users_invalidate_cache
  AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION olympus_notify_invalidate('u');
--> statement-breakpoint
-- A session revoked, shortened or moved to another owner; not the once-a-minute last_seen_at hint.
CREATE TRIGGER sessions_invalidate_cache
  AFTER UPDATE ON sessions
  FOR EACH ROW
  WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
        OR OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.guest_id IS DISTINCT FROM NEW.guest_id
        OR OLD.is_guest IS DISTINCT FROM NEW.is_guest)
  EXECUTE FUNCTION olympus_notify_invalidate('s');
--> statement-breakpoint
CREATE TRIGGER sessions_invalidate_cache_on_delete
  AFTER DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION olympus_notify_invalidate('s');
--> statement-breakpoint
-- A payment's status (what the status poll answers; its price and currency never change).
CREATE TRIGGER payments_invalidate_cache
  AFTER UPDATE ON payments
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.user_id IS DISTINCT FROM NEW.user_id)
  EXECUTE FUNCTION olympus_notify_invalidate('p');
--> statement-breakpoint
-- The two-factor summary /api/auth/me shows is cached with the user: a change to a user's two-factor
-- rows is announced as a change to the user.
CREATE FUNCTION olympus_notify_user_of_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed_user text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    changed_user := OLD.user_id::text;
  ELSE
    changed_user := NEW.user_id::text;
  END IF;
  PERFORM pg_notify('olympus_invalidate', 'u:' || changed_user);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER two_factor_invalidate_user
  AFTER INSERT OR UPDATE OR DELETE ON two_factor
  FOR EACH ROW EXECUTE FUNCTION olympus_notify_user_of_row();
--> statement-breakpoint
CREATE TRIGGER passkeys_invalidate_user
  AFTER INSERT OR UPDATE OR DELETE ON passkeys
  FOR EACH ROW EXECUTE FUNCTION olympus_notify_user_of_row();
--> statement-breakpoint
CREATE TRIGGER recovery_codes_invalidate_user
  AFTER INSERT OR UPDATE OR DELETE ON two_factor_recovery_codes
  FOR EACH ROW EXECUTE FUNCTION olympus_notify_user_of_row();
