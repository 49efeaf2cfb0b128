import type { Manuscript } from '@margins/common';
import type { UserRow } from '../../context.ts';
import type { schema } from '../../db/index.ts';
import { presentPublicUser } from '../users/presenter.ts';

export type ManuscriptRow = typeof schema.manuscripts.$inferSelect;

/** A manuscript row with what its presentation needs. */
export interface ManuscriptDetails {
  manuscript: ManuscriptRow;
  author: UserRow;
  genres: Array<{ id: number; name: string }>;
  commentCount: number;
}

/** A manuscript as clients see it (SPEC §3): the author as a public user, never an e-mail. */
export function presentManuscript({
  manuscript,
  author,
  genres,
  commentCount,
}: ManuscriptDetails): Manuscript {
  return {
    id: manuscript.id,
    title: manuscript.title,
    summary: manuscript.summary,
    visibility: manuscript.visibility,
    private_comments: manuscript.privateComments,
    nsfw: manuscript.nsfw,
    category: manuscript.category,
    genres: genres.map((genre) => ({ id: genre.id, name: genre.name })),
    genre_ids: genres.map((genre) => genre.id),
    created: manuscript.createdAt.toISOString(),
    updated: manuscript.updatedAt.toISOString(),
    inking: manuscript.inking,
    approvals_required: manuscript.approvalsRequired,
    author: presentPublicUser(author),
    user_id: manuscript.userId,
    moderation_flag: manuscript.moderationFlag,
    moderation_reason: manuscript.moderationReason,
    comment_count: commentCount,
    words: manuscript.words,
  };
}
