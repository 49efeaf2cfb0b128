CREATE TABLE "events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"payload" jsonb NOT NULL,
	"actor_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone,
	"dispatched_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "events_undispatched_idx" ON "events" USING btree ("id") WHERE "events"."dispatched_at" IS NULL;--> statement-breakpoint
CREATE INDEX "events_dispatched_idx" ON "events" USING btree ("dispatched_at") WHERE "events"."dispatched_at" IS NOT NULL;