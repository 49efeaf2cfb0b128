-- The mails not sent yet, among every mail ever sent (the outbox keeps them all): GET /metrics
-- counts them at every scrape (plugins/metrics.ts), through this small index, not the table.
CREATE INDEX "mail_outbox_pending_idx" ON "mail_outbox" USING btree ("id") WHERE "mail_outbox"."status" = 'pending';
