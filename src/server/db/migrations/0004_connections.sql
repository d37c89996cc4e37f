CREATE TABLE "connection_verifications" (
	"session_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"provider_user_id" text NOT NULL,
	"profile" jsonb NOT NULL,
	"verified_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "connection_verifications_session_id_provider_pk" PRIMARY KEY("session_id","provider")
);
--> statement-breakpoint
CREATE TABLE "oauth_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"session_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "used_login_proofs" (
	"proof_hash" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "discord_sandbox_grants" (
	"code" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"scope" text NOT NULL,
	"discord_user_id" text NOT NULL,
	"username" text NOT NULL,
	"avatar" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"code_expires_at" timestamp with time zone NOT NULL,
	"code_used_at" timestamp with time zone,
	"access_token" text,
	"token_expires_at" timestamp with time zone,
	CONSTRAINT "discord_sandbox_grants_access_token_unique" UNIQUE("access_token")
);
--> statement-breakpoint
ALTER TABLE "connection_verifications" ADD CONSTRAINT "connection_verifications_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_states" ADD CONSTRAINT "oauth_states_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "connection_verifications_expires_at_idx" ON "connection_verifications" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "oauth_states_expires_at_idx" ON "oauth_states" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "used_login_proofs_expires_at_idx" ON "used_login_proofs" USING btree ("expires_at");