-- Telegram and Discord notifications (decisions 0265, 0266). The shared per-chat send schedule, and the
-- sandboxes' record of what the bots sent, their guild members and DM channels, and their refusal switches.
CREATE TABLE "chat_rate_slots" (
	"key" text PRIMARY KEY NOT NULL,
	"next_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telegram_sandbox_chats" (
	"chat_id" text PRIMARY KEY NOT NULL,
	"write_access_at" timestamp with time zone,
	"mode" text DEFAULT 'normal' NOT NULL,
	"retry_after_seconds" integer DEFAULT 5 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telegram_sandbox_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"chat_id" text NOT NULL,
	"text" text NOT NULL,
	"parse_mode" text,
	"shown_text" text NOT NULL,
	"links" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "telegram_sandbox_messages_chat_created_idx" ON "telegram_sandbox_messages" USING btree ("chat_id","created_at");
--> statement-breakpoint
CREATE TABLE "discord_sandbox_members" (
	"guild_id" text NOT NULL,
	"user_id" text NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discord_sandbox_members_guild_id_user_id_pk" PRIMARY KEY("guild_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "discord_sandbox_dm_channels" (
	"channel_id" text PRIMARY KEY NOT NULL,
	"recipient_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discord_sandbox_dm_channels_recipient_id_unique" UNIQUE("recipient_id")
);
--> statement-breakpoint
CREATE TABLE "discord_sandbox_users" (
	"user_id" text PRIMARY KEY NOT NULL,
	"mode" text DEFAULT 'normal' NOT NULL,
	"retry_after_seconds" integer DEFAULT 5 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "discord_sandbox_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"recipient_id" text NOT NULL,
	"content" text NOT NULL,
	"allowed_mentions" jsonb,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "discord_sandbox_messages_recipient_created_idx" ON "discord_sandbox_messages" USING btree ("recipient_id","created_at");
--> statement-breakpoint
CREATE INDEX "discord_sandbox_messages_channel_created_idx" ON "discord_sandbox_messages" USING btree ("channel_id","created_at");
