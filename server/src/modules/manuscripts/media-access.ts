import type { AppContext, UserRow } from '../../context.ts';
import { isOwner } from '../access/policy.ts';
import { loadReaderAccess } from '../access/reader-access.ts';
import { canViewOriginal } from './policy.ts';
import { findManuscript } from './queries.ts';
import { mayRead } from './reader.ts';

/**
 * May the viewer fetch a stored file that belongs to a manuscript (media.manuscript_id)? Its
 * images: whoever may read the manuscript (mature ones only after the 18+ certification, like
 * the text). Anything else is an uploaded original: only its author (and admins reviewing an open report).
 */
export async function canViewManuscriptMedia(
  ctx: AppContext,
  viewer: UserRow | null,
  media: { manuscriptId: number; contentType: string },
): Promise<boolean> {
  const manuscript = await findManuscript(ctx.db, media.manuscriptId);
  if (!manuscript) return false;
  // Extracted images are always sniffed raster types; originals are documents.
  if (!media.contentType.startsWith('image/')) {
    return canViewOriginal(viewer, manuscript, await loadReaderAccess(ctx, viewer, manuscript));
  }
  if (!(await mayRead(ctx, viewer, manuscript))) return false;
  return !manuscript.nsfw || isOwner(viewer, manuscript) || viewer?.certified18At != null;
}
