import { and, eq, inArray, sql } from 'drizzle-orm';
import { MODERATION_MESSAGES } from '@margins/common';
import type { AppContext, EventTx } from '../../context.ts';
import { schema, type Tx } from '../../db/index.ts';
import { notFound } from '../../lib/http-errors.ts';
import { assertModerator, type ModerationActor } from './policy.ts';
import { parseReason } from './reason.ts';

type ReportModel = 'manuscript' | 'comment';
type Actor = { id: number; role: string };

/**
 * Closes the open reports on these elements: a moderator decided (flag or clear), so they leave
 * the queue, and the staff reading rule stops letting staff open them.
 */
export async function resolveOpenReports(
  tx: Tx,
  actor: ModerationActor,
  model: ReportModel,
  elementIds: number[],
): Promise<number> {
  if (elementIds.length === 0) return 0;
  const closed = await tx
    .update(schema.reports)
    .set({
      status: 'resolved',
      resolvedAt: sql`now()`,
      resolvedById: actor.id,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(schema.reports.modelName, model),
        inArray(schema.reports.reportElementId, elementIds),
        eq(schema.reports.status, 'open'),
      ),
    )
    .returning({ id: schema.reports.id });
  return closed.length;
}

/**
 * Sets (reason) or clears (null) the flag of these manuscripts in the caller's transaction
 * (opened with ctx.events.transaction): readers get SPEC's notice live, authors a mail, and
 * their open reports close. Returns how many changed.
 */
export async function setManuscriptFlags(
  ctx: AppContext,
  tx: EventTx,
  actorInput: Actor,
  ids: number[],
  reason: string | null,
): Promise<number> {
  const actor = assertModerator(actorInput);
  if (ids.length === 0) return 0;
  const changed = await tx
    .update(schema.manuscripts)
    .set({ moderationFlag: reason !== null, moderationReason: reason, updatedAt: sql`now()` })
    .where(
      and(
        inArray(schema.manuscripts.id, ids),
        // Clearing changes only what is flagged (no "cleared" mail for a clean manuscript).
        reason === null ? eq(schema.manuscripts.moderationFlag, true) : undefined,
      ),
    )
    .returning();
  await resolveOpenReports(tx, actor, 'manuscript', ids);
  for (const manuscript of changed) {
    const [author] = await tx
      .select()
      .from(schema.users)
      .where(eq(schema.users.id, manuscript.userId));
    await ctx.events.emit(tx, {
      type: 'manuscript.flagged',
      actorId: actor.id,
      payload: { manuscriptId: manuscript.id, flagged: reason !== null, reason },
      rows: { manuscript, author: author! },
    });
  }
  return changed.length;
}

/** The same for comments: the text goes behind a reveal with the reason, live in the room. */
export async function setCommentFlags(
  ctx: AppContext,
  tx: EventTx,
  actorInput: Actor,
  ids: number[],
  reason: string | null,
): Promise<number> {
  const actor = assertModerator(actorInput);
  if (ids.length === 0) return 0;
  // changed_at moves: a reader catching up (?since=) gets the flag too.
  const changed = await tx
    .update(schema.comments)
    .set({ moderationFlag: reason !== null, moderationReason: reason, changedAt: sql`now()` })
    .where(
      and(
        inArray(schema.comments.id, ids),
        sql`${schema.comments.deletedAt} is null`,
        reason === null ? eq(schema.comments.moderationFlag, true) : undefined,
      ),
    )
    .returning();
  await resolveOpenReports(tx, actor, 'comment', ids);
  for (const comment of changed) {
    const [manuscript] = await tx
      .select()
      .from(schema.manuscripts)
      .where(eq(schema.manuscripts.id, comment.manuscriptId));
    const [author] = await tx
      .select({
        id: schema.users.id,
        displayName: schema.users.displayName,
        handle: schema.users.handle,
        pictureMediaId: schema.users.pictureMediaId,
      })
      .from(schema.users)
      .where(eq(schema.users.id, comment.authorId));
    await ctx.events.emit(tx, {
      type: 'comment.flagged',
      actorId: actor.id,
      payload: {
        manuscriptId: comment.manuscriptId,
        commentId: comment.id,
        flagged: reason !== null,
      },
      rows: { manuscript: manuscript!, comment, author: author! },
    });
  }
  return changed.length;
}

/** 404 unless the element exists (a clear of a clean one is fine: nothing to do). */
async function assertExists(tx: Tx, model: ReportModel, id: number): Promise<void> {
  const table = model === 'manuscript' ? schema.manuscripts : schema.comments;
  const [row] = await tx.select({ id: table.id }).from(table).where(eq(table.id, id));
  if (!row) throw notFound(MODERATION_MESSAGES.notFound(model));
}

/** Flags one element with a reason (text) or clears its flag (null): 404 when it does not exist. */
async function setOneFlag(
  ctx: AppContext,
  actor: Actor,
  model: ReportModel,
  id: number,
  reason: string | null,
): Promise<void> {
  assertModerator(actor);
  await ctx.events.transaction(async (tx) => {
    await assertExists(tx, model, id);
    const setFlags = model === 'manuscript' ? setManuscriptFlags : setCommentFlags;
    await setFlags(ctx, tx, actor, [id], reason);
  });
}

/** Flags a manuscript with a reason (SPEC: "This manuscript was flagged by our moderators…"). */
export async function flagManuscript(
  ctx: AppContext,
  actor: Actor,
  manuscriptId: number,
  reason: unknown,
): Promise<void> {
  assertModerator(actor);
  await setOneFlag(ctx, actor, 'manuscript', manuscriptId, parseReason(reason));
}

/** Clears a manuscript's flag. */
export async function clearManuscriptFlag(
  ctx: AppContext,
  actor: Actor,
  manuscriptId: number,
): Promise<void> {
  await setOneFlag(ctx, actor, 'manuscript', manuscriptId, null);
}

/** Flags a comment: its text goes behind a reveal with the reason. */
export async function flagComment(
  ctx: AppContext,
  actor: Actor,
  commentId: number,
  reason: unknown,
): Promise<void> {
  assertModerator(actor);
  await setOneFlag(ctx, actor, 'comment', commentId, parseReason(reason));
}

/** Clears a comment's flag. */
export async function clearCommentFlag(
  ctx: AppContext,
  actor: Actor,
  commentId: number,
): Promise<void> {
  await setOneFlag(ctx, actor, 'comment', commentId, null);
}
