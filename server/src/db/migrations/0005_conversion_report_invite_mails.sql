CREATE TABLE "invite_mails" (
	"manuscript_id" integer NOT NULL,
	"recipient" text NOT NULL,
	"last_mailed_at" timestamp with time zone,
	"declined_at" timestamp with time zone,
	CONSTRAINT "invite_mails_manuscript_id_recipient_pk" PRIMARY KEY("manuscript_id","recipient")
);
--> statement-breakpoint
ALTER TABLE "manuscript_versions" ADD COLUMN "report" jsonb;--> statement-breakpoint
ALTER TABLE "invite_mails" ADD CONSTRAINT "invite_mails_manuscript_id_manuscripts_id_fk" FOREIGN KEY ("manuscript_id") REFERENCES "public"."manuscripts"("id") ON DELETE cascade ON UPDATE no action;