import type { ReadGate, ReaderPageResponse, ReaderResponse } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { presentBookmark } from '../bookmarks/presenter.ts';
import { findBookmark } from '../bookmarks/queries.ts';
import type { ManuscriptRow } from '../manuscripts/presenter.ts';
import { presentOne } from '../manuscripts/queries.ts';
import { presentSurvey } from '../surveys/presenter.ts';
import { findAnswer, findSurvey } from '../surveys/queries.ts';
import { listManuscriptInvites, listPendingInvitesFor } from './queries.ts';
import { presentInvites } from './shared.ts';

/** The access part of the reader's page data (what readerPageResponse adds). */
type ReaderAccessData = Omit<ReaderPageResponse, keyof ReaderResponse>;

/**
 * The reader page's access state for this viewer: the gate, the questionnaire (the author's
 * copy with the right answers, else the readers'), the feedback survey once past the gate,
 * their read, and the invites (all of them for the author; the viewer's own pending ones).
 */
export async function readerAccessData(
  ctx: AppContext,
  viewer: UserRow | null,
  manuscript: ManuscriptRow,
  gate: ReadGate | null,
): Promise<ReaderAccessData> {
  const { db } = ctx;
  const isAuthor = viewer?.id === manuscript.userId;
  const audience = isAuthor ? 'author' : 'reader';
  const [questionnaire, feedback, bookmark, invites, ownInvites] = await Promise.all([
    findSurvey(db, manuscript.id, 'questionaire'),
    findSurvey(db, manuscript.id, 'feedback'),
    viewer ? findBookmark(db, viewer.id, manuscript.id) : null,
    isAuthor ? listManuscriptInvites(db, manuscript.id) : [],
    viewer && !isAuthor ? listPendingInvitesFor(db, viewer, manuscript.id) : [],
  ]);
  const feedbackAnswer = viewer && feedback ? await findAnswer(db, feedback.id, viewer.id) : null;
  return {
    gate,
    questionnaire: questionnaire ? presentSurvey(questionnaire, audience) : null,
    feedback_survey:
      feedback && (isAuthor || gate === null) ? presentSurvey(feedback, audience) : null,
    feedback_submitted: feedbackAnswer !== null,
    bookmark: bookmark ? presentBookmark(bookmark, await presentOne(db, manuscript)) : null,
    invites: await presentInvites(ctx, invites, viewer),
    currentUserInvites: await presentInvites(ctx, ownInvites, viewer),
  };
}
