// The manuscript's changes, each written here once (issue 34: one writer per change, as
// Outline's documentUpdater): the author's routes, the admin section and the share panel call
// these commands and never write `manuscripts` themselves, so a change and its events behave
// the same whoever makes it. Each writes its row and its events in one transaction, its own or
// the caller's (`joining`: an admin write commits with its audit row). Who may make a change is
// the caller's to check (policy.ts for the author, the admin policy for staff).
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { InviteType, ManuscriptEditValues } from '@margins/common';
import type { AppContext, EventTx } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { conflict, notFound } from '../../lib/http-errors.ts';
import type { ManuscriptRow } from './presenter.ts';
import { checkGenres, setGenres } from './upload.ts';

/** The answer to a change of an archived manuscript (the admin area lists those too). */
export const ARCHIVED_MESSAGE = 'This manuscript is archived: it can no longer be changed.';

/** Who makes a change (the events' actor): the author, or staff in the admin area. */
export interface ManuscriptActor {
  id: number;
}

/** The manuscript a command changes: its row, or only its id (the admin area has no more). */
export type ManuscriptRef = Pick<ManuscriptRow, 'id'>;

/**
 * The edit form's change (the author's, or staff's in the admin area): only the fields given
 * change. Readers who lost access through it leave the live room at once: a new visibility
 * emits manuscript.visibility_changed, a new mature setting manuscript.gate_changed, each only
 * when the row's value really changed. 409 on an archived manuscript, 404 on none.
 */
export async function editManuscript(
  ctx: AppContext,
  actor: ManuscriptActor,
  manuscript: ManuscriptRef,
  values: ManuscriptEditValues,
  joining?: EventTx,
): Promise<ManuscriptRow> {
  return ctx.events.transaction(async (tx) => {
    await checkGenres(tx, values.genre_ids);
    // Locked: what the change is compared with is what it replaces, even with a second writer.
    const before = await lockLive(tx, manuscript.id);
    const [updated] = await tx
      .update(schema.manuscripts)
      .set({
        title: values.title,
        summary: values.summary,
        visibility: values.visibility,
        privateComments: values.private_comments,
        nsfw: values.nsfw,
        category: values.category,
        approvalsRequired: values.approvals_required,
        updatedAt: new Date(),
      })
      .where(eq(schema.manuscripts.id, before.id))
      .returning();
    if (values.genre_ids !== undefined) await setGenres(tx, before.id, values.genre_ids);
    await emitSettingChanges(ctx, tx, actor, before, updated!);
    return updated!;
  }, joining);
}

/** Who may read (the share panel's invite type, the admin's visibility): editManuscript's rule. */
export function changeVisibility(
  ctx: AppContext,
  actor: ManuscriptActor,
  manuscript: ManuscriptRef,
  visibility: InviteType,
  joining?: EventTx,
): Promise<ManuscriptRow> {
  return editManuscript(ctx, actor, manuscript, { visibility }, joining);
}

/**
 * Deleting archives: the manuscript leaves every list and the reader, and stays in the
 * database. manuscript.archived is emitted when this archived it; archiving one already
 * archived changes nothing and answers false.
 */
export async function archiveManuscript(
  ctx: AppContext,
  actor: ManuscriptActor,
  manuscript: ManuscriptRef,
  joining?: EventTx,
): Promise<boolean> {
  return ctx.events.transaction(async (tx) => {
    const archived = await tx
      .update(schema.manuscripts)
      .set({ archivedAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(schema.manuscripts.id, manuscript.id), isNull(schema.manuscripts.archivedAt)))
      .returning({ id: schema.manuscripts.id });
    if (archived.length === 0) return false;
    await ctx.events.emit(tx, {
      type: 'manuscript.archived',
      actorId: actor.id,
      payload: { manuscriptId: manuscript.id },
    });
    return true;
  }, joining);
}

/** The live manuscript, locked until the transaction ends; 404 when none, 409 when archived. */
async function lockLive(tx: EventTx, manuscriptId: number): Promise<ManuscriptRow> {
  const [row] = await tx
    .select()
    .from(schema.manuscripts)
    .where(eq(schema.manuscripts.id, manuscriptId))
    .for('update');
  if (!row) throw notFound();
  if (row.archivedAt !== null) throw conflict(ARCHIVED_MESSAGE);
  return row;
}

/** The events of a settings change: who may read, and the gates in front of the text. */
async function emitSettingChanges(
  ctx: AppContext,
  tx: EventTx,
  actor: ManuscriptActor,
  before: ManuscriptRow,
  after: ManuscriptRow,
): Promise<void> {
  const manuscriptId = after.id;
  if (after.visibility !== before.visibility) {
    await ctx.events.emit(tx, {
      type: 'manuscript.visibility_changed',
      actorId: actor.id,
      payload: { manuscriptId, from: before.visibility, to: after.visibility },
    });
  }
  if (after.nsfw !== before.nsfw) {
    await ctx.events.emit(tx, {
      type: 'manuscript.gate_changed',
      actorId: actor.id,
      payload: { manuscriptId },
    });
  }
}
