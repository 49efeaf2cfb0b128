import { READING_FLUSH_MAX_READS, READING_FLUSH_MS } from '@margins/common';
import type { Database } from '../../db/index.ts';

/** One block of a batch, already mapped to its chapter and capped (see recordReading). */
export interface CreditedBlock {
  chapterId: string;
  blockId: string;
  ms: number;
  /** The most this block may earn (recordReading's cap for its words). */
  capMs: number;
}

/** How far the reader got, kept on the read (the furthest wins; going back changes nothing). */
interface ReadPosition {
  blockIdx: number;
  percent: number;
}

/** A read as the writer knows it: the bookmark, and the draft its blocks were mapped against. */
interface ReadTarget {
  bookmarkId: number;
  versionId: number | null;
}

/**
 * The reading batches of many reads in one statement (the hot path of reading insights): per
 * read its summary (last active, furthest position), and every chapter's aggregate upserted
 * from unnest(). The credit is decided against the row as locked by ON CONFLICT, so batches
 * at once cannot both credit a block: a block earns time only if not yet in seen_block_ids.
 * Each read is looked up in the statement with the draft its blocks were mapped against: a
 * read that is gone (the reader left, the manuscript was deleted) or has a newer draft writes
 * nothing and is not among the returned ids.
 *
 * Per read: $1 bookmark ids, $2 draft (version) ids, $3 block indexes, $4 percents (null: no
 * position). Per block: $5 bookmark ids, $6 chapter ids, $7 block ids, $8 ms.
 */
const READING_BATCH_SQL = `
WITH wanted AS (
  SELECT * FROM unnest($1::integer[], $2::integer[], $3::integer[], $4::float8[])
    AS wanted(bookmark_id, version_id, block_idx, percent)
),
read AS (
  SELECT read.id, read.user_id, read.manuscript_id, wanted.block_idx, wanted.percent
  FROM wanted
  JOIN bookmarks read ON read.id = wanted.bookmark_id
  JOIN manuscripts ON manuscripts.id = read.manuscript_id
  WHERE manuscripts.current_version_id IS NOT DISTINCT FROM wanted.version_id
),
batch AS (
  SELECT * FROM unnest($5::integer[], $6::text[], $7::text[], $8::float8[])
    AS batch(bookmark_id, chapter_id, block_id, ms)
),
position AS (
  UPDATE bookmarks SET
    progress_block_idx = greatest(coalesce(bookmarks.progress_block_idx, 0), read.block_idx),
    progress_percent = greatest(coalesce(bookmarks.progress_percent, 0), read.percent),
    progress_updated_at = now(),
    updated_at = now()
  FROM read
  WHERE bookmarks.id = read.id AND read.block_idx IS NOT NULL
),
state AS (
  INSERT INTO reading_states (bookmark_id, user_id, manuscript_id, last_active_at)
  SELECT id, user_id, manuscript_id, now() FROM read
  ON CONFLICT (bookmark_id) DO UPDATE SET last_active_at = excluded.last_active_at
  RETURNING bookmark_id
),
chapters AS (
  INSERT INTO reading_chapters AS chapter (bookmark_id, chapter_id, user_id, manuscript_id,
    seconds, seen_block_ids, blocks_seen, first_seen_at, last_seen_at)
  SELECT read.id, batch.chapter_id, read.user_id, read.manuscript_id,
    sum(batch.ms) / 1000, array_agg(batch.block_id), count(*), now(), now()
  FROM read JOIN batch ON batch.bookmark_id = read.id
  GROUP BY read.id, read.user_id, read.manuscript_id, batch.chapter_id
  ON CONFLICT (bookmark_id, chapter_id) DO UPDATE SET
    seconds = chapter.seconds + coalesce((
      SELECT sum(fresh.ms) FROM batch fresh
      WHERE fresh.bookmark_id = excluded.bookmark_id AND fresh.chapter_id = excluded.chapter_id
        AND fresh.block_id <> ALL (chapter.seen_block_ids)), 0) / 1000,
    seen_block_ids = chapter.seen_block_ids || ARRAY(
      SELECT fresh.block_id FROM batch fresh
      WHERE fresh.bookmark_id = excluded.bookmark_id AND fresh.chapter_id = excluded.chapter_id
        AND fresh.block_id <> ALL (chapter.seen_block_ids)),
    blocks_seen = chapter.blocks_seen + (
      SELECT count(*) FROM batch fresh
      WHERE fresh.bookmark_id = excluded.bookmark_id AND fresh.chapter_id = excluded.chapter_id
        AND fresh.block_id <> ALL (chapter.seen_block_ids))::integer,
    last_seen_at = excluded.last_seen_at
)
SELECT bookmark_id FROM state`;

/** What waits for the next flush: per read, its blocks (merged) and position. */
interface PendingRead {
  target: ReadTarget;
  blocks: Map<string, CreditedBlock>;
  position: ReadPosition | null;
  waiters: Array<{ resolve: (found: boolean) => void; reject: (error: unknown) => void }>;
}

interface Writer {
  pending: Map<string, PendingRead>;
  timer: ReturnType<typeof setTimeout> | null;
}

const writers = new WeakMap<object, Writer>();

/**
 * Queues a read's batch for the next flush and resolves once it is written (true) or found
 * gone (false: no such read, or the draft changed). Batches arriving within READING_FLUSH_MS
 * share one statement (a group commit): with many readers, the statement's cost is spread over
 * all of them; a reader's request waits at most that long, and answers only once committed.
 */
export function writeReadingBatch(
  database: Pick<Database, 'pglite' | 'pool'>,
  target: ReadTarget,
  blocks: CreditedBlock[],
  position: ReadPosition | null,
): Promise<boolean> {
  let writer = writers.get(database);
  if (!writer) {
    writer = { pending: new Map(), timer: null };
    writers.set(database, writer);
  }
  const key = `${target.bookmarkId}:${target.versionId}`;
  let read = writer.pending.get(key);
  if (!read) {
    read = { target, blocks: new Map(), position: null, waiters: [] };
    writer.pending.set(key, read);
  }
  mergeInto(read, blocks, position);
  const promise = new Promise<boolean>((resolve, reject) => {
    read.waiters.push({ resolve, reject });
  });
  if (writer.pending.size >= READING_FLUSH_MAX_READS) void flush(database, writer);
  else writer.timer ??= setTimeout(() => void flush(database, writer), READING_FLUSH_MS);
  return promise;
}

/**
 * A second batch of the same read before the flush: a block it repeats earns nothing more (as
 * it would in a later flush: a block earns time once), the furthest position wins.
 */
function mergeInto(read: PendingRead, blocks: CreditedBlock[], position: ReadPosition | null) {
  for (const block of blocks) {
    if (!read.blocks.has(block.blockId)) read.blocks.set(block.blockId, { ...block });
  }
  if (!position) return;
  read.position = read.position
    ? {
        blockIdx: Math.max(read.position.blockIdx, position.blockIdx),
        percent: Math.max(read.position.percent, position.percent),
      }
    : position;
}

async function flush(database: Pick<Database, 'pglite' | 'pool'>, writer: Writer): Promise<void> {
  if (writer.timer) clearTimeout(writer.timer);
  writer.timer = null;
  const reads = [...writer.pending.values()];
  writer.pending.clear();
  if (reads.length === 0) return;
  const blocks = reads.flatMap((read) =>
    [...read.blocks.values()].map((block) => ({ bookmarkId: read.target.bookmarkId, ...block })),
  );
  const values = [
    reads.map((read) => read.target.bookmarkId),
    reads.map((read) => read.target.versionId),
    reads.map((read) => read.position?.blockIdx ?? null),
    reads.map((read) => read.position?.percent ?? null),
    blocks.map((block) => block.bookmarkId),
    blocks.map((block) => block.chapterId),
    blocks.map((block) => block.blockId),
    blocks.map((block) => block.ms),
  ];
  try {
    const found = new Set((await run(database, values)).map((row) => row.bookmark_id));
    for (const read of reads) {
      for (const waiter of read.waiters) waiter.resolve(found.has(read.target.bookmarkId));
    }
  } catch (error) {
    for (const read of reads) for (const waiter of read.waiters) waiter.reject(error);
  }
}

/**
 * Straight to the driver: no query building, and on PostgreSQL a named prepared statement
 * (parsed and planned once per connection).
 */
async function run(
  database: Pick<Database, 'pglite' | 'pool'>,
  values: unknown[],
): Promise<Array<{ bookmark_id: number }>> {
  if (database.pool) {
    const result = await database.pool.query<{ bookmark_id: number }>({
      name: 'reading-batch',
      text: READING_BATCH_SQL,
      values,
    });
    return result.rows;
  }
  if (database.pglite) {
    return (await database.pglite.query<{ bookmark_id: number }>(READING_BATCH_SQL, values)).rows;
  }
  throw new Error('writeReadingBatch: no database connection');
}
