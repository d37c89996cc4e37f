-- Ledger entries are never updated or deleted (docs/product.md#credits): corrections are new entries.
CREATE FUNCTION credit_ledger_entries_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'credit ledger entries are immutable (% refused)', TG_OP USING ERRCODE = 'P0001';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER credit_ledger_entries_no_update_delete
  BEFORE UPDATE OR DELETE ON credit_ledger_entries
  FOR EACH ROW EXECUTE FUNCTION credit_ledger_entries_immutable();
--> statement-breakpoint
CREATE TRIGGER credit_ledger_entries_no_truncate
  BEFORE TRUNCATE ON credit_ledger_entries
  FOR EACH STATEMENT EXECUTE FUNCTION credit_ledger_entries_immutable();
