import { and, eq, isNull } from 'drizzle-orm';
import type { ManuscriptEditValues } from '@margins/common';
import type { AppContext } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { notFound } from '../../lib/http-errors.ts';
import type { ManuscriptRow } from './presenter.ts';
import { checkGenres, setGenres } from './upload.ts';

/** Saves the edit form: only the fields sent change (moderation fields are not the author's). */
export async function editManuscript(
  ctx: AppContext,
  manuscript: ManuscriptRow,
  values: ManuscriptEditValues,
): Promise<ManuscriptRow> {
  return ctx.events.transaction(async (tx) => {
    await checkGenres(tx, values.genre_ids);
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
      .where(and(eq(schema.manuscripts.id, manuscript.id), isNull(schema.manuscripts.archivedAt)))
      .returning();
    if (!updated) throw notFound();
    if (values.genre_ids !== undefined) await setGenres(tx, manuscript.id, values.genre_ids);
    // Readers who lost access through this change leave the live room now, not at reconnect.
    const actorId = manuscript.userId;
    if (updated.visibility !== manuscript.visibility) {
      await ctx.events.emit(tx, {
        type: 'manuscript.visibility_changed',
        actorId,
        payload: {
          manuscriptId: manuscript.id,
          from: manuscript.visibility,
          to: updated.visibility,
        },
      });
    }
    if (updated.nsfw !== manuscript.nsfw) {
      await ctx.events.emit(tx, {
        type: 'manuscript.gate_changed',
        actorId,
        payload: { manuscriptId: manuscript.id },
      });
    }
    return updated;
  });
}

/** Deleting archives: the manuscript leaves every list and the reader, and stays in the database. */
export async function archiveManuscript(ctx: AppContext, manuscript: ManuscriptRow): Promise<void> {
  await ctx.db
    .update(schema.manuscripts)
    .set({ archivedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(schema.manuscripts.id, manuscript.id), isNull(schema.manuscripts.archivedAt)));
  await ctx.events.emit(ctx.db, {
    type: 'manuscript.archived',
    actorId: manuscript.userId,
    payload: { manuscriptId: manuscript.id },
  });
}
