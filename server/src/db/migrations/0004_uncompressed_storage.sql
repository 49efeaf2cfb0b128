-- Stored uncompressed (out of line): uploaded files and images are compressed formats already
-- (zip, PNG, JPEG), so PostgreSQL's compression only spent time failing on them; a converted
-- manuscript's HTML (~1 MB for a novel) took ~10 ms more to write compressed. On the embedded
-- database that time is spent on the server's event loop.
ALTER TABLE "media" ALTER COLUMN "data" SET STORAGE EXTERNAL;--> statement-breakpoint
ALTER TABLE "manuscript_versions" ALTER COLUMN "html" SET STORAGE EXTERNAL;
