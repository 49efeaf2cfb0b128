import { eq } from 'drizzle-orm';
import type { ReaderResponse } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { notFound, unauthorized } from '../../lib/http-errors.ts';
import { canEdit, canRead, isOwner, readRefusal } from './policy.ts';
import type { ManuscriptRow } from './presenter.ts';
import { findManuscript, presentOne } from './queries.ts';
import { loadReaderAccess } from './reader-access.ts';

/** The manuscript if the viewer may read it; 401 when logging in would help, 404 otherwise. */
export async function findReadable(
  ctx: AppContext,
  viewer: UserRow | null,
  manuscriptId: number,
): Promise<ManuscriptRow> {
  const manuscript = await findManuscript(ctx.db, manuscriptId);
  if (!manuscript) throw notFound();
  const access = await loadReaderAccess(ctx, viewer, manuscript);
  const refusal = readRefusal(viewer, manuscript, access);
  if (refusal === 'login') throw unauthorized();
  if (refusal === 'hidden') throw notFound();
  return manuscript;
}

/** True when the viewer may read the manuscript (for checks that answer no rather than throw). */
export async function mayRead(
  ctx: AppContext,
  viewer: UserRow | null,
  manuscript: ManuscriptRow,
): Promise<boolean> {
  return canRead(viewer, manuscript, await loadReaderAccess(ctx, viewer, manuscript));
}

/** The manuscript if it is the user's own and live; 404 for anything else (never reveal it). */
export async function findEditable(
  ctx: AppContext,
  user: UserRow,
  manuscriptId: number,
): Promise<ManuscriptRow> {
  const manuscript = await findManuscript(ctx.db, manuscriptId);
  if (!manuscript || !canEdit(user, manuscript)) throw notFound();
  return manuscript;
}

/**
 * The reader's page configuration and text. Mature text is withheld (html "", toc []) from
 * readers who have not certified they are 18 or over; the page shows the 18+ gate instead.
 */
export async function readerView(
  ctx: AppContext,
  viewer: UserRow | null,
  manuscriptId: number,
): Promise<ReaderResponse> {
  const manuscript = await findReadable(ctx, viewer, manuscriptId);
  const owner = isOwner(viewer, manuscript);
  const restrictedMature = manuscript.nsfw && !owner && !viewer?.certified18At;
  const [version] = manuscript.currentVersionId
    ? await ctx.db
        .select({
          html: schema.manuscriptVersions.html,
          toc: schema.manuscriptVersions.toc,
          words: schema.manuscriptVersions.words,
        })
        .from(schema.manuscriptVersions)
        .where(eq(schema.manuscriptVersions.id, manuscript.currentVersionId))
    : [];
  return {
    manuscript_id: manuscript.id,
    manuscript_user_id: manuscript.userId,
    visibility: manuscript.visibility,
    current_user_id: viewer?.id ?? null,
    restricted_mature: restrictedMature,
    restricted_moderation: manuscript.moderationFlag && !owner,
    moderationReason: manuscript.moderationReason,
    manuscript: await presentOne(ctx.db, manuscript),
    html: restrictedMature ? '' : (version?.html ?? ''),
    toc: restrictedMature ? [] : (version?.toc ?? []),
    words: version?.words ?? manuscript.words,
  };
}
