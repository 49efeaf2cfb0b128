import { COMMENT_MESSAGES, MESSAGES } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { forbidden, notFound, unauthorized } from '../../lib/http-errors.ts';
import { readGate, readRefusal, type ReaderAccess } from '../access/policy.ts';
import type { ManuscriptRow } from '../manuscripts/presenter.ts';
import { findManuscript } from '../manuscripts/queries.ts';
import { loadReaderAccess } from '../access/reader-access.ts';
import { can, type CommentAction, type PolicyComment } from './policy.ts';

/** A viewer and a manuscript they may read, with their access: what every comment call starts from. */
export interface CommentScope {
  viewer: UserRow | null;
  manuscript: ManuscriptRow;
  access: ReaderAccess;
}

/**
 * The manuscript's scope for this viewer, checked by the manuscripts policy on every call (so a
 * revoked reader is refused at once): 401 when logging in would help, 404 when they may not
 * know it exists, 403 behind a gate (18+, questionnaire).
 */
export async function loadScope(
  ctx: AppContext,
  viewer: UserRow | null,
  manuscriptId: number,
): Promise<CommentScope> {
  return scopeOf(ctx, viewer, await findManuscript(ctx.db, manuscriptId));
}

/**
 * loadScope() for a manuscript row already read (the socket's joins share one read), and the
 * viewer's access when already known (realtime/room-access.ts reads it for many at once).
 */
export async function scopeOf(
  ctx: AppContext,
  viewer: UserRow | null,
  manuscript: ManuscriptRow | null,
  known?: ReaderAccess,
): Promise<CommentScope> {
  if (!manuscript) throw notFound();
  const access = known ?? (await loadReaderAccess(ctx, viewer, manuscript));
  const refusal = readRefusal(viewer, manuscript, access);
  if (refusal === 'login') throw unauthorized();
  if (refusal === 'hidden') throw notFound();
  const gate = readGate(viewer, manuscript, access);
  if (gate === 'mature') throw forbidden(COMMENT_MESSAGES.matureGate);
  if (gate !== null) throw forbidden(COMMENT_MESSAGES.questionnaireGate);
  return { viewer, manuscript, access };
}

const REFUSALS: Partial<Record<CommentAction, string>> = {
  rank: COMMENT_MESSAGES.ownVote,
  report: COMMENT_MESSAGES.reportOwn,
};

/** Throws unless the policy allows the action (401 when logged out, else 403). */
export function authorize(
  scope: CommentScope,
  action: CommentAction,
  comment: PolicyComment | null,
): void {
  if (can(scope.viewer, action, comment, scope.manuscript, scope.access)) return;
  if (!scope.viewer) throw unauthorized();
  if (comment && comment.deletedAt !== null) throw notFound();
  const own = comment !== null && comment.authorId === scope.viewer.id;
  throw forbidden((own && REFUSALS[action]) || MESSAGES.forbidden);
}
