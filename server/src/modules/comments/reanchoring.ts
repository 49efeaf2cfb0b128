// Re-anchoring a manuscript: every live highlight placed again in a new current draft.
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { schema, type Executor } from '../../db/index.ts';
import { blockById, limitedBudget } from './anchor-matching.ts';
import { anchorAt, placeAnchor, type AnchorFields } from './anchor-placement.ts';
import { cachedDocumentText, type DocumentText } from './document-text.ts';

/**
 * Maps a position in an old draft to where it most likely is in a new one, by the nearest
 * untouched block before it (same id in both): text added or removed earlier shifts it.
 */
function positionMapper(oldDoc: DocumentText, newDoc: DocumentText): (at: number) => number {
  const newBlocks = blockById(newDoc);
  const pairs: Array<[number, number]> = [];
  for (const block of oldDoc.blocks) {
    const now = newBlocks.get(block.id);
    if (now) pairs.push([block.start, now.start]);
  }
  return (at) => {
    let low = 0;
    let high = pairs.length - 1;
    let found: [number, number] | null = null;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (pairs[middle]![0] <= at) {
        found = pairs[middle]!;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    return found ? found[1] + (at - found[0]) : at;
  };
}

interface ReanchorSummary {
  /** Placed by block, position or exact quote. */
  kept: number;
  /** Placed by a fuzzy match (the passage was edited). */
  moved: number;
  orphaned: number;
}

/** Whole-text fuzzy searches one re-anchoring may spend (the rest become orphans). */
const REANCHOR_FUZZY_BUDGET = { count: 2_000, ms: 5_000 };

/**
 * Places every live highlight of a manuscript in its new current draft, inside the transaction
 * that makes the draft current. Highlights that cannot be placed are kept as orphans (their quote
 * stays; a later draft tries again).
 */
export async function reanchorHighlights(
  tx: Executor,
  manuscriptId: number,
  version: { id: number; html: string },
): Promise<ReanchorSummary> {
  const rows = await tx
    .select()
    .from(schema.highlights)
    .where(
      and(eq(schema.highlights.manuscriptId, manuscriptId), isNull(schema.highlights.deletedAt)),
    );
  const summary: ReanchorSummary = { kept: 0, moved: 0, orphaned: 0 };
  if (rows.length === 0) return summary;
  const doc = cachedDocumentText(version.id, () => version.html);
  const budget = limitedBudget(REANCHOR_FUZZY_BUDGET.count, REANCHOR_FUZZY_BUDGET.ms);
  const mappers = await oldDraftMappers(tx, rows, doc);
  const updates: Parameters<typeof writeAnchors>[1] = [];
  for (const [index, row] of rows.entries()) {
    // Let the event loop breathe (sockets, requests) on a long book with many highlights.
    if (index > 0 && index % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
    const mapped = row.versionId === null ? undefined : mappers.get(row.versionId)?.(row.textStart);
    const placement = placeAnchor(doc, row, { budget, expectedStart: mapped });
    if (!placement) {
      summary.orphaned += 1;
      updates.push({ ...storedFields(row), id: row.id, version_id: row.versionId, orphaned: true });
      continue;
    }
    summary[placement.method === 'fuzzy' ? 'moved' : 'kept'] += 1;
    const anchor = anchorAt(doc, placement.start, placement.end);
    updates.push({ ...storedFields(anchor), id: row.id, version_id: version.id, orphaned: false });
  }
  for (let index = 0; index < updates.length; index += 500) {
    await writeAnchors(tx, updates.slice(index, index + 500));
  }
  return summary;
}

/** A position mapper from each draft the highlights were last placed in to the new one. */
async function oldDraftMappers(
  tx: Executor,
  rows: Array<{ versionId: number | null }>,
  doc: DocumentText,
): Promise<Map<number, (at: number) => number>> {
  const ids = [...new Set(rows.map((row) => row.versionId).filter((id) => id !== null))];
  if (ids.length === 0) return new Map();
  const drafts = await tx
    .select({ id: schema.manuscriptVersions.id, html: schema.manuscriptVersions.html })
    .from(schema.manuscriptVersions)
    .where(inArray(schema.manuscriptVersions.id, ids));
  return new Map(
    drafts.map((draft) => [
      draft.id,
      positionMapper(
        cachedDocumentText(draft.id, () => draft.html),
        doc,
      ),
    ]),
  );
}

function storedFields(anchor: AnchorFields) {
  return {
    start_path: anchor.startPath,
    end_path: anchor.endPath,
    start_offset: anchor.startOffset,
    end_offset: anchor.endOffset,
    block_id: anchor.blockId,
    block_offset: anchor.blockOffset,
    text_start: anchor.textStart,
    text_end: anchor.textEnd,
    quote_exact: anchor.quoteExact,
    quote_prefix: anchor.quotePrefix,
    quote_suffix: anchor.quoteSuffix,
  };
}

/** One UPDATE for many highlights (a JSON record set), so 2,000 highlights are 4 statements. */
async function writeAnchors(
  tx: Executor,
  rows: Array<
    ReturnType<typeof storedFields> & { id: string; version_id: number | null; orphaned: boolean }
  >,
): Promise<void> {
  await tx.execute(sql`
    update highlights as h set
      version_id = v.version_id, start_path = v.start_path, end_path = v.end_path,
      start_offset = v.start_offset, end_offset = v.end_offset, block_id = v.block_id,
      block_offset = v.block_offset, text_start = v.text_start, text_end = v.text_end,
      quote_exact = v.quote_exact, quote_prefix = v.quote_prefix, quote_suffix = v.quote_suffix,
      orphaned = v.orphaned, updated_at = now(), changed_at = now()
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(
      id text, version_id integer, start_path integer[], end_path integer[], start_offset integer,
      end_offset integer, block_id text, block_offset integer, text_start integer,
      text_end integer, quote_exact text, quote_prefix text, quote_suffix text, orphaned boolean)
    where h.id = v.id`);
}
