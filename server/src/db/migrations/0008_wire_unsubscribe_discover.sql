CREATE TABLE "manuscript_version_wire" (
	"version_id" integer PRIMARY KEY NOT NULL,
	"brotli" "bytea" NOT NULL,
	"deflate" "bytea" NOT NULL,
	"crc" bigint NOT NULL,
	"length" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "list_unsubscribe" text;--> statement-breakpoint
ALTER TABLE "manuscript_version_wire" ADD CONSTRAINT "manuscript_version_wire_version_id_manuscript_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."manuscript_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "manuscript_search_title_words_idx" ON "manuscript_search" USING gin (to_tsvector('english'::regconfig, "title_key"));