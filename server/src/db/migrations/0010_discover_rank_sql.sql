-- Discover: the few suspended users, whose manuscripts are not found, as an index of their own
-- (every search asks for them; without it each search read the whole users table).
CREATE INDEX IF NOT EXISTS "users_suspended_idx" ON "users" ("id") WHERE "suspended_at" IS NOT NULL;
