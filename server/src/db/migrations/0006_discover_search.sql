-- Discover's search rows and the triggers that keep them (see schema-search.ts).
-- unaccent() is only STABLE; index expressions and generated keys need an IMMUTABLE wrapper.
CREATE OR REPLACE FUNCTION margins_fold(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(unaccent('unaccent'::regdictionary, value)) $$;--> statement-breakpoint
-- Plain text of the opening of an HTML draft (the first ~2,000 words).
CREATE OR REPLACE FUNCTION margins_opening_text(html text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$
    SELECT array_to_string(
      (regexp_split_to_array(
        btrim(replace(replace(replace(replace(replace(replace(
          regexp_replace(left(html, 60000), '<[^>]*>?', ' ', 'g'),
          '&nbsp;', ' '), '&lt;', '<'), '&gt;', '>'), '&quot;', '"'), '&#39;', ''''), '&amp;', '&')),
        '\s+'))[1:2000],
      ' ')
  $$;--> statement-breakpoint
-- Rewrites the search rows of some manuscripts from their sources, in one statement (the
-- triggers pass one id; a bulk load passes many). with_text also re-reads the opening of the
-- current draft (only when the draft changed: that is the costly part).
CREATE OR REPLACE FUNCTION margins_search_refresh_many(targets integer[], with_text boolean)
  RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM manuscript_search s
    WHERE s.manuscript_id = ANY(targets)
      AND NOT EXISTS (SELECT 1 FROM manuscripts m WHERE m.id = s.manuscript_id);
  INSERT INTO manuscript_search AS s (
    manuscript_id, document, title_key, author_key, opening, listed, visibility, category,
    nsfw, flagged, owner_id, genre_ids, read_count, comment_count, created_at
  )
  SELECT
    m.id,
    setweight(to_tsvector('english', margins_fold(m.title)), 'A')
      || setweight(to_tsvector('english', margins_fold(
           m.summary || ' ' || u.display_name || ' ' || coalesce(u.handle, ''))), 'B')
      || setweight(to_tsvector('english', margins_fold(g.names)), 'C')
      || setweight(to_tsvector('english', margins_fold(t.opening)), 'D'),
    margins_fold(m.title),
    margins_fold(u.display_name || ' ' || coalesce(u.handle, '')),
    t.opening,
    m.archived_at IS NULL AND NOT m.inking AND m.current_version_id IS NOT NULL,
    m.visibility, m.category, m.nsfw, m.moderation_flag, m.user_id, g.ids,
    (SELECT count(*) FROM bookmarks b WHERE b.manuscript_id = m.id),
    (SELECT count(*) FROM comments c WHERE c.manuscript_id = m.id AND c.deleted_at IS NULL),
    m.created_at
  FROM manuscripts m
  JOIN users u ON u.id = m.user_id
  CROSS JOIN LATERAL (
    SELECT coalesce(string_agg(genre.name, ' '), '') AS names,
           coalesce(array_agg(genre.id ORDER BY genre.id), '{}') AS ids
    FROM manuscript_genres mg JOIN genres genre ON genre.id = mg.genre_id
    WHERE mg.manuscript_id = m.id
  ) g
  CROSS JOIN LATERAL (
    SELECT coalesce(
      CASE WHEN with_text
        THEN (SELECT margins_opening_text(v.html) FROM manuscript_versions v
              WHERE v.id = m.current_version_id)
        ELSE (SELECT old.opening FROM manuscript_search old WHERE old.manuscript_id = m.id)
      END, '') AS opening
  ) t
  WHERE m.id = ANY(targets)
  ON CONFLICT (manuscript_id) DO UPDATE SET
    document = excluded.document, title_key = excluded.title_key,
    author_key = excluded.author_key, opening = excluded.opening, listed = excluded.listed,
    visibility = excluded.visibility, category = excluded.category, nsfw = excluded.nsfw,
    flagged = excluded.flagged, owner_id = excluded.owner_id, genre_ids = excluded.genre_ids,
    read_count = excluded.read_count, comment_count = excluded.comment_count,
    created_at = excluded.created_at;
  INSERT INTO search_words (word)
    SELECT DISTINCT w
    FROM manuscripts m
    JOIN users u ON u.id = m.user_id
    CROSS JOIN LATERAL regexp_split_to_table(
      margins_fold(m.title) || ' ' || margins_fold(u.display_name) || ' '
        || margins_fold(coalesce(u.handle, '')), '[^[:alnum:]]+') AS w
    WHERE m.id = ANY(targets) AND length(w) >= 3
  ON CONFLICT DO NOTHING;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION margins_search_refresh(target integer, with_text boolean)
  RETURNS void LANGUAGE sql AS $$ SELECT margins_search_refresh_many(ARRAY[target], with_text) $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION margins_search_on_manuscript() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM margins_search_refresh(NEW.id,
    TG_OP = 'INSERT' OR NEW.current_version_id IS DISTINCT FROM OLD.current_version_id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER manuscript_search_manuscript_insert AFTER INSERT ON manuscripts
  FOR EACH ROW EXECUTE FUNCTION margins_search_on_manuscript();--> statement-breakpoint
CREATE TRIGGER manuscript_search_manuscript_update
  AFTER UPDATE OF title, summary, visibility, category, nsfw, inking, moderation_flag,
    archived_at, current_version_id, user_id, created_at ON manuscripts
  FOR EACH ROW EXECUTE FUNCTION margins_search_on_manuscript();--> statement-breakpoint
CREATE OR REPLACE FUNCTION margins_search_on_genre_link() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM margins_search_refresh(OLD.manuscript_id, false);
  ELSE
    PERFORM margins_search_refresh(NEW.manuscript_id, false);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER manuscript_search_genres AFTER INSERT OR DELETE ON manuscript_genres
  FOR EACH ROW EXECUTE FUNCTION margins_search_on_genre_link();--> statement-breakpoint
CREATE OR REPLACE FUNCTION margins_search_on_author() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM margins_search_refresh(m.id, false) FROM manuscripts m WHERE m.user_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER manuscript_search_author AFTER UPDATE OF display_name, handle ON users
  FOR EACH ROW EXECUTE FUNCTION margins_search_on_author();--> statement-breakpoint
CREATE OR REPLACE FUNCTION margins_search_on_genre_name() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM margins_search_refresh(mg.manuscript_id, false)
    FROM manuscript_genres mg WHERE mg.genre_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER manuscript_search_genre_name AFTER UPDATE OF name ON genres
  FOR EACH ROW EXECUTE FUNCTION margins_search_on_genre_name();--> statement-breakpoint
-- Counters for the "most read" and "most commented" orders, kept by the row's own change.
CREATE OR REPLACE FUNCTION margins_search_count_reads() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE manuscript_search SET read_count = read_count + 1 WHERE manuscript_id = NEW.manuscript_id;
  ELSE
    UPDATE manuscript_search SET read_count = greatest(read_count - 1, 0)
      WHERE manuscript_id = OLD.manuscript_id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER manuscript_search_reads AFTER INSERT OR DELETE ON bookmarks
  FOR EACH ROW EXECUTE FUNCTION margins_search_count_reads();--> statement-breakpoint
CREATE OR REPLACE FUNCTION margins_search_count_comments() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  delta integer := 0;
BEGIN
  IF TG_OP = 'INSERT' THEN
    delta := CASE WHEN NEW.deleted_at IS NULL THEN 1 ELSE 0 END;
  ELSIF TG_OP = 'DELETE' THEN
    delta := CASE WHEN OLD.deleted_at IS NULL THEN -1 ELSE 0 END;
  ELSIF OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL THEN
    delta := -1;
  ELSIF OLD.deleted_at IS NOT NULL AND NEW.deleted_at IS NULL THEN
    delta := 1;
  END IF;
  IF delta <> 0 THEN
    UPDATE manuscript_search SET comment_count = greatest(comment_count + delta, 0)
      WHERE manuscript_id = coalesce(NEW.manuscript_id, OLD.manuscript_id);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER manuscript_search_comments AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON comments
  FOR EACH ROW EXECUTE FUNCTION margins_search_count_comments();--> statement-breakpoint
-- Manuscripts that exist already.
SELECT margins_search_refresh(id, true) FROM manuscripts;
