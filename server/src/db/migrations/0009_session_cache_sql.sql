-- The session cache's invalidation (modules/auth/session-cache.ts): a change to a user, or the
-- end of a session, is announced on the margins_auth channel, from whichever process or SQL
-- session made it, at its commit. Every process LISTENs and forgets what it kept of that user
-- or session. Payload: 'u:<user id>' or 's:<session id>'.
-- Likewise the events that change who may read (margins_access, for the access decisions of
-- modules/bookmarks/read-access-cache.ts), as {"name": ..., "payload": ...}.
CREATE OR REPLACE FUNCTION margins_auth_notify_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('margins_auth', 'u:' || OLD.id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION margins_auth_notify_session() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('margins_auth', 's:' || OLD.id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER users_auth_notify AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION margins_auth_notify_user();--> statement-breakpoint
CREATE TRIGGER sessions_auth_notify AFTER UPDATE OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION margins_auth_notify_session();--> statement-breakpoint
CREATE OR REPLACE FUNCTION margins_access_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  message text := json_build_object('name', NEW.name, 'payload', NEW.payload)::text;
BEGIN
  -- A NOTIFY payload holds 8000 bytes at most: a long list of readers is announced as the
  -- whole manuscript (every decision about it is forgotten).
  IF length(message) > 7000 THEN
    message := json_build_object('name', NEW.name, 'payload', json_build_object(
      'manuscriptId', NEW.payload->'manuscriptId', 'userId', NEW.payload->'userId'))::text;
  END IF;
  PERFORM pg_notify('margins_access', message);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER events_access_notify AFTER INSERT ON events FOR EACH ROW
  WHEN (NEW.name IN ('access.revoked', 'manuscript.visibility_changed', 'manuscript.gate_changed',
    'manuscript.archived', 'manuscript.flagged', 'user.suspended'))
  EXECUTE FUNCTION margins_access_notify();
