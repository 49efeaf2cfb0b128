CREATE TABLE "document_conversions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"manuscript_id" integer,
	"kind" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"message" text,
	"original_media_id" text,
	"source_format" text NOT NULL,
	"file_name" text NOT NULL,
	"use_document_title" boolean DEFAULT false NOT NULL,
	"job_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"version_id" integer,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "manuscript_genres" (
	"manuscript_id" integer NOT NULL,
	"genre_id" integer NOT NULL,
	CONSTRAINT "manuscript_genres_manuscript_id_genre_id_pk" PRIMARY KEY("manuscript_id","genre_id")
);
--> statement-breakpoint
CREATE TABLE "manuscript_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"manuscript_id" integer NOT NULL,
	"number" integer NOT NULL,
	"original_media_id" text,
	"source_format" text NOT NULL,
	"file_name" text NOT NULL,
	"html" text NOT NULL,
	"toc" jsonb NOT NULL,
	"words" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "manuscripts" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"title" text NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"visibility" text DEFAULT 'private' NOT NULL,
	"private_comments" boolean DEFAULT false NOT NULL,
	"nsfw" boolean DEFAULT false NOT NULL,
	"category" text DEFAULT 'fiction' NOT NULL,
	"approvals_required" boolean DEFAULT false NOT NULL,
	"inking" boolean DEFAULT true NOT NULL,
	"moderation_flag" boolean DEFAULT false NOT NULL,
	"moderation_reason" text,
	"archived_at" timestamp with time zone,
	"current_version_id" integer,
	"words" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "manuscript_id" integer;--> statement-breakpoint
ALTER TABLE "document_conversions" ADD CONSTRAINT "document_conversions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_conversions" ADD CONSTRAINT "document_conversions_manuscript_id_manuscripts_id_fk" FOREIGN KEY ("manuscript_id") REFERENCES "public"."manuscripts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_conversions" ADD CONSTRAINT "document_conversions_original_media_id_media_id_fk" FOREIGN KEY ("original_media_id") REFERENCES "public"."media"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_conversions" ADD CONSTRAINT "document_conversions_version_id_manuscript_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."manuscript_versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manuscript_genres" ADD CONSTRAINT "manuscript_genres_manuscript_id_manuscripts_id_fk" FOREIGN KEY ("manuscript_id") REFERENCES "public"."manuscripts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manuscript_genres" ADD CONSTRAINT "manuscript_genres_genre_id_genres_id_fk" FOREIGN KEY ("genre_id") REFERENCES "public"."genres"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manuscript_versions" ADD CONSTRAINT "manuscript_versions_manuscript_id_manuscripts_id_fk" FOREIGN KEY ("manuscript_id") REFERENCES "public"."manuscripts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manuscript_versions" ADD CONSTRAINT "manuscript_versions_original_media_id_media_id_fk" FOREIGN KEY ("original_media_id") REFERENCES "public"."media"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manuscripts" ADD CONSTRAINT "manuscripts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manuscripts" ADD CONSTRAINT "manuscripts_current_version_id_manuscript_versions_id_fk" FOREIGN KEY ("current_version_id") REFERENCES "public"."manuscript_versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_conversions_user_idx" ON "document_conversions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "document_conversions_manuscript_idx" ON "document_conversions" USING btree ("manuscript_id");--> statement-breakpoint
CREATE INDEX "document_conversions_status_idx" ON "document_conversions" USING btree ("status");--> statement-breakpoint
CREATE INDEX "manuscript_genres_genre_idx" ON "manuscript_genres" USING btree ("genre_id");--> statement-breakpoint
CREATE UNIQUE INDEX "manuscript_versions_number_unique" ON "manuscript_versions" USING btree ("manuscript_id","number");--> statement-breakpoint
CREATE INDEX "manuscripts_user_idx" ON "manuscripts" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_manuscript_id_manuscripts_id_fk" FOREIGN KEY ("manuscript_id") REFERENCES "public"."manuscripts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_manuscript_idx" ON "media" USING btree ("manuscript_id");