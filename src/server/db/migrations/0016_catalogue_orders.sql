CREATE TABLE "catalogue_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"price_cents" bigint NOT NULL,
	"stock" integer,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "catalogue_items_price_positive" CHECK ("catalogue_items"."price_cents" > 0),
	CONSTRAINT "catalogue_items_stock_non_negative" CHECK ("catalogue_items"."stock" IS NULL OR "catalogue_items"."stock" >= 0)
);
--> statement-breakpoint
CREATE INDEX "catalogue_items_active_name_idx" ON "catalogue_items" USING btree ("active","name");
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"item_name" text NOT NULL,
	"price_cents" bigint NOT NULL,
	"status" text DEFAULT 'paid' NOT NULL,
	"idempotency_key" text NOT NULL,
	"ledger_entry_id" uuid NOT NULL,
	"refund_ledger_entry_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"fulfilled_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	CONSTRAINT "orders_status" CHECK ("orders"."status" IN ('paid', 'fulfilled', 'refunded')),
	CONSTRAINT "orders_price_positive" CHECK ("orders"."price_cents" > 0),
	CONSTRAINT "orders_refund_entry" CHECK (("orders"."status" = 'refunded') = ("orders"."refund_ledger_entry_id" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_item_id_catalogue_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."catalogue_items"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_ledger_entry_id_fk" FOREIGN KEY ("ledger_entry_id") REFERENCES "public"."credit_ledger_entries"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_refund_ledger_entry_id_fk" FOREIGN KEY ("refund_ledger_entry_id") REFERENCES "public"."credit_ledger_entries"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "orders_user_idempotency_key" ON "orders" USING btree ("user_id","idempotency_key");
--> statement-breakpoint
CREATE UNIQUE INDEX "orders_ledger_entry_key" ON "orders" USING btree ("ledger_entry_id");
--> statement-breakpoint
CREATE INDEX "orders_user_created_idx" ON "orders" USING btree ("user_id","created_at");
--> statement-breakpoint
CREATE INDEX "orders_status_created_idx" ON "orders" USING btree ("status","created_at");
--> statement-breakpoint
ALTER TABLE "mail_preferences" ADD COLUMN "order_updates" boolean DEFAULT true NOT NULL;
