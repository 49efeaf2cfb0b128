import type { AppContext, UserRow } from '../context.ts';
import {
  manuscriptWithReaders,
  prepareManuscriptWithFacts,
  readerAccessOf,
} from '../modules/access/manuscript-access.ts';
import { isStaff } from '../modules/access/policy.ts';
import { scopeOf, type CommentScope } from '../modules/comments/scope.ts';

interface Waiting {
  viewer: UserRow | null;
  resolve: (scope: CommentScope) => void;
  reject: (error: unknown) => void;
}

/**
 * The reading policy of socket events at a lower price than loadScope()'s three statements,
 * with nothing kept (every answer as fresh as its own query, so a revoked reader is refused on
 * their very next event):
 *
 * - A join storm is read together: the joins to one manuscript in the same turn of the event
 *   loop share one statement (the manuscript, and every viewer's grant and questionnaire state),
 *   not three each.
 * - A write reads the manuscript and the writer's facts in one prepared statement.
 *
 * Authors need no facts; staff's depend on open reports: both go through loadScope's own read.
 * (A shared access-decision cache, when plugins offer one, would slot in here.)
 */
export class RoomAccess {
  private readonly waiting = new Map<number, Waiting[]>();
  private readonly manuscriptWithFacts: ReturnType<typeof prepareManuscriptWithFacts>;

  constructor(private readonly ctx: AppContext) {
    this.manuscriptWithFacts = prepareManuscriptWithFacts(ctx.db, 'realtime_manuscript_facts');
  }

  /** loadScope() for a socket write: the manuscript and the writer's facts in one statement. */
  async scopeIn(viewer: UserRow | null, manuscriptId: number): Promise<CommentScope> {
    const found = await this.manuscriptWithFacts(viewer?.id ?? null, manuscriptId);
    if (!found) return scopeOf(this.ctx, viewer, null);
    const { manuscript, facts } = found;
    if (viewer?.id === manuscript.userId || isStaff(viewer)) {
      return scopeOf(this.ctx, viewer, manuscript);
    }
    return scopeOf(this.ctx, viewer, manuscript, readerAccessOf(viewer, facts));
  }

  /** The viewer's scope for a join, read with the other joins to that manuscript in this turn. */
  joinScope(viewer: UserRow | null, manuscriptId: number): Promise<CommentScope> {
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(manuscriptId);
      if (queue) {
        queue.push({ viewer, resolve, reject });
        return;
      }
      this.waiting.set(manuscriptId, [{ viewer, resolve, reject }]);
      setImmediate(() => void this.flush(manuscriptId));
    });
  }

  private async flush(manuscriptId: number): Promise<void> {
    const batch = this.waiting.get(manuscriptId) ?? [];
    this.waiting.delete(manuscriptId);
    const userIds = [...new Set(batch.flatMap(({ viewer }) => (viewer ? [viewer.id] : [])))];
    let found: Awaited<ReturnType<typeof manuscriptWithReaders>>;
    try {
      found = await manuscriptWithReaders(this.ctx.db, manuscriptId, userIds);
    } catch (error) {
      for (const entry of batch) entry.reject(error);
      return;
    }
    for (const { viewer, resolve, reject } of batch) {
      const manuscript = found?.manuscript ?? null;
      const scope =
        !found || !manuscript || viewer?.id === manuscript.userId || isStaff(viewer)
          ? scopeOf(this.ctx, viewer, manuscript)
          : scopeOf(
              this.ctx,
              viewer,
              manuscript,
              readerAccessOf(viewer, found.factsOf(viewer?.id ?? null)),
            );
      scope.then(resolve, reject);
    }
  }
}
