-- Discover: full-text search (weighted tsvector, GIN), typo tolerance (pg_trgm) and
-- accent-insensitive matching (unaccent), misspelling correction (fuzzystrmatch). All ship with PGlite and PostgreSQL 15.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS fuzzystrmatch;--> statement-breakpoint
CREATE TABLE "invite_mails" (
	"manuscript_id" integer NOT NULL,
	"recipient" text NOT NULL,
	"last_mailed_at" timestamp with time zone,
	"declined_at" timestamp with time zone,
	CONSTRAINT "invite_mails_manuscript_id_recipient_pk" PRIMARY KEY("manuscript_id","recipient")
);
--> statement-breakpoint
CREATE TABLE "manuscript_search" (
	"manuscript_id" integer PRIMARY KEY NOT NULL,
	"document" "tsvector" NOT NULL,
	"title_key" text NOT NULL,
	"author_key" text NOT NULL,
	"opening" text DEFAULT '' NOT NULL,
	"listed" boolean NOT NULL,
	"visibility" text NOT NULL,
	"category" text NOT NULL,
	"nsfw" boolean NOT NULL,
	"flagged" boolean NOT NULL,
	"owner_id" integer NOT NULL,
	"genre_ids" integer[] DEFAULT '{}' NOT NULL,
	"read_count" integer DEFAULT 0 NOT NULL,
	"comment_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "known_devices" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"next" text,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_throttles" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"blocked_until" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"bucket" text NOT NULL,
	"key" text NOT NULL,
	"count" integer NOT NULL,
	"reset_at" timestamp with time zone NOT NULL,
	CONSTRAINT "rate_limits_bucket_key_pk" PRIMARY KEY("bucket","key")
);
--> statement-breakpoint
ALTER TABLE "manuscript_versions" ADD COLUMN "report" jsonb;--> statement-breakpoint
ALTER TABLE "invite_mails" ADD CONSTRAINT "invite_mails_manuscript_id_manuscripts_id_fk" FOREIGN KEY ("manuscript_id") REFERENCES "public"."manuscripts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manuscript_search" ADD CONSTRAINT "manuscript_search_manuscript_id_manuscripts_id_fk" FOREIGN KEY ("manuscript_id") REFERENCES "public"."manuscripts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "known_devices" ADD CONSTRAINT "known_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "login_links" ADD CONSTRAINT "login_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "manuscript_search_document_idx" ON "manuscript_search" USING gin ("document");--> statement-breakpoint
CREATE INDEX "manuscript_search_title_trgm_idx" ON "manuscript_search" USING gin ("title_key" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "manuscript_search_author_trgm_idx" ON "manuscript_search" USING gin ("author_key" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "manuscript_search_genres_idx" ON "manuscript_search" USING gin ("genre_ids");--> statement-breakpoint
CREATE INDEX "manuscript_search_created_idx" ON "manuscript_search" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "search_words_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "known_devices_user_idx" ON "known_devices" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "login_links_user_idx" ON "login_links" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "login_throttles_expires_idx" ON "login_throttles" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "rate_limits_reset_idx" ON "rate_limits" USING btree ("reset_at");