-- Discover: the few suspended users, whose manuscripts are not found, as an index of their own
-- (every search asks for them; without it each search read the whole users table).
CREATE INDEX IF NOT EXISTS "users_suspended_idx" ON "users" ("id") WHERE "suspended_at" IS NOT NULL;
--> statement-breakpoint
-- The search rows' large values (the document, the opening's text) are kept out of the row in
-- the TOAST table from 256 bytes on, not only from 2 kB: the rows a search filters and sorts by
-- (visibility, counts, keys, the head it ranks by) then fill 21 MB at 100,000 manuscripts, not
-- 114 MB, and stay in the buffer cache. Rows written before this are moved as they change.
ALTER TABLE "manuscript_search" SET (toast_tuple_target = 256);
--> statement-breakpoint
-- What a search reads of every candidate (the head it ranks by, the keys, the genres) stays in
-- the row (compressed if need be), not in the TOAST table with the document and the opening.
ALTER TABLE "manuscript_search" ALTER COLUMN "head" SET STORAGE MAIN, ALTER COLUMN "title_key" SET STORAGE MAIN, ALTER COLUMN "author_key" SET STORAGE MAIN, ALTER COLUMN "genre_ids" SET STORAGE MAIN;
