CREATE TABLE "manuscript_reminder_settings" (
	"manuscript_id" integer PRIMARY KEY NOT NULL,
	"reminder_days" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reading_chapters" (
	"bookmark_id" integer NOT NULL,
	"chapter_id" text NOT NULL,
	"user_id" integer NOT NULL,
	"manuscript_id" integer NOT NULL,
	"seconds" double precision DEFAULT 0 NOT NULL,
	"seen_block_ids" text[] NOT NULL,
	"blocks_seen" integer DEFAULT 0 NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reading_chapters_bookmark_id_chapter_id_pk" PRIMARY KEY("bookmark_id","chapter_id")
);
--> statement-breakpoint
CREATE TABLE "reading_states" (
	"bookmark_id" integer PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"manuscript_id" integer NOT NULL,
	"last_active_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"stopped_at" timestamp with time zone,
	"stop_reason" text,
	"stop_text" text,
	"stop_chapter_id" text,
	"last_reminded_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "unsubscribe_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "manuscript_reminder_settings" ADD CONSTRAINT "manuscript_reminder_settings_manuscript_id_manuscripts_id_fk" FOREIGN KEY ("manuscript_id") REFERENCES "public"."manuscripts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_chapters" ADD CONSTRAINT "reading_chapters_bookmark_id_bookmarks_id_fk" FOREIGN KEY ("bookmark_id") REFERENCES "public"."bookmarks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_chapters" ADD CONSTRAINT "reading_chapters_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_chapters" ADD CONSTRAINT "reading_chapters_manuscript_id_manuscripts_id_fk" FOREIGN KEY ("manuscript_id") REFERENCES "public"."manuscripts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_states" ADD CONSTRAINT "reading_states_bookmark_id_bookmarks_id_fk" FOREIGN KEY ("bookmark_id") REFERENCES "public"."bookmarks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_states" ADD CONSTRAINT "reading_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_states" ADD CONSTRAINT "reading_states_manuscript_id_manuscripts_id_fk" FOREIGN KEY ("manuscript_id") REFERENCES "public"."manuscripts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unsubscribe_tokens" ADD CONSTRAINT "unsubscribe_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reading_chapters_manuscript_idx" ON "reading_chapters" USING btree ("manuscript_id");--> statement-breakpoint
CREATE INDEX "reading_states_manuscript_idx" ON "reading_states" USING btree ("manuscript_id");--> statement-breakpoint
CREATE INDEX "unsubscribe_tokens_user_idx" ON "unsubscribe_tokens" USING btree ("user_id");