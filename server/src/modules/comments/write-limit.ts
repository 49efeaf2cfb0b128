import { MESSAGES } from '@margins/common';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../lib/http-errors.ts';

/** Highlights, comment saves and deletions, votes and reports: per user, per minute. */
export const COMMENT_WRITES_PER_MINUTE = 120;

/**
 * Counts one comment write of a user, over HTTP or the socket alike; past the limit the write
 * is refused with 429 (a script, not a reader: a fast reader votes and comments far slower).
 */
export async function countCommentWrite(ctx: AppContext, userId: number): Promise<void> {
  if (!(await ctx.limits.commentWritesPerUser.hit(String(userId)))) {
    throw new HttpError(429, MESSAGES.tooManyWrites);
  }
}
