-- The change signal (lib/cache): every statement that writes an application table announces
-- that table's name on the margins_changes channel, so that every process learns, from the
-- database itself, which tables changed, and drops exactly the kept answers that read them.
-- Statement-level: one notification per table per statement, whatever the number of rows
-- (and PostgreSQL sends one per table per transaction: identical notifications of a
-- transaction are folded into one). It fires for the table a foreign-key cascade or another
-- trigger writes too, and a notification is sent at commit only: a rolled-back transaction
-- announces nothing.
CREATE OR REPLACE FUNCTION margins_table_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('margins_changes', TG_TABLE_NAME);
  RETURN NULL;
END $$;--> statement-breakpoint
-- Puts the change trigger on a table: every migration that creates a table calls it
-- (db/change-signal.test.ts fails for a table without it).
CREATE OR REPLACE FUNCTION margins_watch_changes(target regclass) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format(
    'CREATE OR REPLACE TRIGGER margins_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %s '
    'FOR EACH STATEMENT EXECUTE FUNCTION margins_table_changed()', target);
END $$;--> statement-breakpoint
SELECT margins_watch_changes(format('public.%I', tablename)::regclass)
  FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename;
