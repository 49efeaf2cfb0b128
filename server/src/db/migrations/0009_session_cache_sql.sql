-- The session cache's invalidation (modules/auth/session-cache.ts): a change to a user, or the
-- end of a session, is announced on the margins_auth channel, from whichever process or SQL
-- session made it, at its commit. Every process LISTENs and forgets what it kept of that user
-- or session. Payload: 'u:<user id>' or 's:<session id>'.
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
  FOR EACH ROW EXECUTE FUNCTION margins_auth_notify_session();
