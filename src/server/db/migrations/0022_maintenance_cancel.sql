-- Status page: staff may cancel a scheduled maintenance window (decision 0187). A cancelled window is
-- kept (for the audit trail and a second cancel answering 409) but no longer shown or fed.
ALTER TABLE "status_maintenances" ADD COLUMN "cancelled_at" timestamp with time zone;
