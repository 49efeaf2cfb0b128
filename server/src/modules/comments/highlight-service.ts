import { and, count, eq } from 'drizzle-orm';
import { COMMENT_MESSAGES, HIGHLIGHT_COLOURS, type HighlightInput } from '@margins/common';
import type { AppContext } from '../../context.ts';
import { schema, type Executor } from '../../db/index.ts';
import { badRequest, conflict } from '../../lib/http-errors.ts';
import { anchorAt, locateSelection } from './anchoring.ts';
import { cachedDocumentText, isCached } from './document-text.ts';
import type { WriteOptions } from './events.ts';
import type { HighlightRow } from './presenter.ts';
import { authorize, type CommentScope } from './scope.ts';

type HighlightInsert = typeof schema.highlights.$inferInsert;

const STILL_PROCESSING = 'The manuscript is still being processed. Try again in a moment.';

/**
 * The row of a new highlight: the selection is checked against the current draft's text (it
 * must lie inside the reader box), and its anchors are computed here, not trusted.
 */
export async function prepareHighlight(
  ctx: AppContext,
  scope: CommentScope,
  selectionId: string,
  input: HighlightInput,
): Promise<HighlightInsert> {
  const versionId = scope.manuscript.currentVersionId;
  if (versionId === null) throw conflict(STILL_PROCESSING);
  const html = isCached(versionId) ? '' : await loadHtml(ctx.db, versionId);
  const doc = cachedDocumentText(versionId, () => html);
  const placed = locateSelection(doc, input);
  if (!placed) throw badRequest({ highlight: [COMMENT_MESSAGES.selectionOutside] });
  const anchor = anchorAt(doc, placed.start, placed.end);
  return {
    id: selectionId,
    manuscriptId: scope.manuscript.id,
    versionId,
    userId: scope.viewer!.id,
    ...anchor,
    selectedText: input.selectedText,
    colour: input.colour ?? (await nextColour(ctx.db, scope.manuscript.id)),
  };
}

/**
 * Stores a prepared highlight. Sending the same selection_id again (a retry after a reconnect)
 * answers the stored one; a selection_id someone else or another manuscript uses is a 409.
 */
export async function insertHighlight(
  tx: Executor,
  values: HighlightInsert,
): Promise<{ highlight: HighlightRow; created: boolean }> {
  const [inserted] = await tx
    .insert(schema.highlights)
    .values(values)
    .onConflictDoNothing()
    .returning();
  if (inserted) return { highlight: inserted, created: true };
  const [existing] = await tx
    .select()
    .from(schema.highlights)
    .where(eq(schema.highlights.id, values.id));
  if (
    !existing ||
    existing.deletedAt !== null ||
    existing.manuscriptId !== values.manuscriptId ||
    existing.userId !== values.userId
  ) {
    throw conflict(COMMENT_MESSAGES.selectionTaken);
  }
  return { highlight: existing, created: false };
}

/** The `highlight` call: stores a highlight and tells the room (new_highlight) after commit. */
export async function createHighlight(
  ctx: AppContext,
  scope: CommentScope,
  selectionId: string,
  input: HighlightInput,
  options: WriteOptions = {},
): Promise<HighlightRow> {
  authorize(scope, 'create', null);
  const values = await prepareHighlight(ctx, scope, selectionId, input);
  return ctx.events.transaction(async (tx) => {
    const { highlight, created } = await insertHighlight(tx, values);
    if (created) {
      await ctx.events.emit(tx, {
        type: 'highlight.created',
        actorId: highlight.userId,
        originSocketId: options.originSocketId,
        payload: { manuscriptId: scope.manuscript.id, selectionId: highlight.id },
        rows: { manuscript: scope.manuscript, highlight },
      });
    }
    return highlight;
  });
}

async function loadHtml(db: Executor, versionId: number): Promise<string> {
  const [row] = await db
    .select({ html: schema.manuscriptVersions.html })
    .from(schema.manuscriptVersions)
    .where(eq(schema.manuscriptVersions.id, versionId));
  return row?.html ?? '';
}

/** Highlights take the SPEC colour cycle in the order they are made on a manuscript. */
async function nextColour(db: Executor, manuscriptId: number): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(schema.highlights)
    .where(and(eq(schema.highlights.manuscriptId, manuscriptId)));
  return (row?.total ?? 0) % HIGHLIGHT_COLOURS.length;
}
