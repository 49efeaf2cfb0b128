CREATE TABLE "comment_votes" (
	"comment_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"value" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "comment_votes_comment_id_user_id_pk" PRIMARY KEY("comment_id","user_id"),
	CONSTRAINT "comment_votes_value_check" CHECK ("comment_votes"."value" in (-1, 1))
);
--> statement-breakpoint
CREATE TABLE "comments" (
	"id" serial PRIMARY KEY NOT NULL,
	"manuscript_id" integer NOT NULL,
	"selection_id" text NOT NULL,
	"author_id" integer NOT NULL,
	"body" text NOT NULL,
	"rank" integer DEFAULT 0 NOT NULL,
	"moderation_flag" boolean DEFAULT false NOT NULL,
	"moderation_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "highlights" (
	"id" text PRIMARY KEY NOT NULL,
	"manuscript_id" integer NOT NULL,
	"version_id" integer,
	"user_id" integer NOT NULL,
	"start_path" integer[] NOT NULL,
	"end_path" integer[] NOT NULL,
	"start_offset" integer NOT NULL,
	"end_offset" integer NOT NULL,
	"selected_text" text NOT NULL,
	"block_id" text,
	"block_offset" integer,
	"text_start" integer NOT NULL,
	"text_end" integer NOT NULL,
	"quote_exact" text NOT NULL,
	"quote_prefix" text NOT NULL,
	"quote_suffix" text NOT NULL,
	"colour" smallint DEFAULT 0 NOT NULL,
	"orphaned" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "report_reasons" (
	"id" serial PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"description" text,
	"description_required" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_reasons_reason_unique" UNIQUE("reason")
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"model_name" text NOT NULL,
	"report_element_id" integer NOT NULL,
	"reason_id" integer NOT NULL,
	"reason_description" text DEFAULT '' NOT NULL,
	"reporter_id" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "socket_io_attachments" (
	"id" bigserial NOT NULL,
	"created_at" timestamp with time zone DEFAULT now(),
	"payload" "bytea",
	CONSTRAINT "socket_io_attachments_id_unique" UNIQUE("id")
);
--> statement-breakpoint
ALTER TABLE "comment_votes" ADD CONSTRAINT "comment_votes_comment_id_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_votes" ADD CONSTRAINT "comment_votes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_manuscript_id_manuscripts_id_fk" FOREIGN KEY ("manuscript_id") REFERENCES "public"."manuscripts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_selection_id_highlights_id_fk" FOREIGN KEY ("selection_id") REFERENCES "public"."highlights"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "highlights" ADD CONSTRAINT "highlights_manuscript_id_manuscripts_id_fk" FOREIGN KEY ("manuscript_id") REFERENCES "public"."manuscripts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "highlights" ADD CONSTRAINT "highlights_version_id_manuscript_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."manuscript_versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "highlights" ADD CONSTRAINT "highlights_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reason_id_report_reasons_id_fk" FOREIGN KEY ("reason_id") REFERENCES "public"."report_reasons"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_resolved_by_id_users_id_fk" FOREIGN KEY ("resolved_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "comment_votes_user_idx" ON "comment_votes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "comments_manuscript_changed_idx" ON "comments" USING btree ("manuscript_id","changed_at");--> statement-breakpoint
CREATE INDEX "comments_selection_idx" ON "comments" USING btree ("selection_id");--> statement-breakpoint
CREATE INDEX "comments_author_idx" ON "comments" USING btree ("author_id");--> statement-breakpoint
CREATE INDEX "highlights_manuscript_position_idx" ON "highlights" USING btree ("manuscript_id","text_start");--> statement-breakpoint
CREATE INDEX "highlights_manuscript_changed_idx" ON "highlights" USING btree ("manuscript_id","changed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "reports_reporter_element_unique" ON "reports" USING btree ("reporter_id","model_name","report_element_id");--> statement-breakpoint
CREATE INDEX "reports_status_idx" ON "reports" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "reports_element_idx" ON "reports" USING btree ("model_name","report_element_id");--> statement-breakpoint
INSERT INTO "report_reasons" ("reason", "description", "description_required", "position") VALUES
	('Spam or advertising', 'Promotes something, or repeats itself to get attention.', false, 1),
	('Harassment or hate', 'Attacks or demeans a person or a group.', false, 2),
	('Spoilers without warning', 'Gives away what happens later in the manuscript.', false, 3),
	('Inappropriate or explicit content', 'Sexual, violent or otherwise unsuitable material.', false, 4),
	('Plagiarism or stolen work', 'Copies someone else''s writing without credit.', false, 5),
	('Something else', 'Tell us what is wrong in the description.', true, 6)
ON CONFLICT ("reason") DO NOTHING;
