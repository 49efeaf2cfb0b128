import type { AppContext, UserRow } from '../context.ts';
import { grantedUserIds } from '../modules/access/grants.ts';
import {
  prepareManuscriptWithFacts,
  type ReaderFacts,
} from '../modules/access/manuscript-access.ts';
import { isStaff, type ReaderAccess } from '../modules/access/policy.ts';
import { questionnaireStatesOfUsers } from '../modules/access/questionnaire.ts';
import { scopeOf, type CommentScope } from '../modules/comments/scope.ts';
import type { ManuscriptRow } from '../modules/manuscripts/presenter.ts';

interface Waiting {
  userId: number | null;
  resolve: (facts: ReaderFacts) => void;
  reject: (error: unknown) => void;
}

/**
 * The reading policy of socket events at a lower price than loadScope()'s three statements,
 * with nothing kept (every answer as fresh as its own query, so a revoked reader is refused on
 * their very next event):
 *
 * - A join storm's facts are read together: the viewers of one manuscript asking in the same
 *   turn of the event loop share one grants query and one questionnaire query (not two each).
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
    return scopeOf(this.ctx, viewer, manuscript, accessOf(viewer, facts));
  }

  /** The viewer's scope for a manuscript row just read (a join), their facts read in a batch. */
  async scope(viewer: UserRow | null, manuscript: ManuscriptRow | null): Promise<CommentScope> {
    if (!manuscript || viewer?.id === manuscript.userId || isStaff(viewer)) {
      return scopeOf(this.ctx, viewer, manuscript);
    }
    const facts = await this.batched(viewer?.id ?? null, manuscript.id);
    return scopeOf(this.ctx, viewer, manuscript, accessOf(viewer, facts));
  }

  /** The facts of one viewer, read with those of everyone asking about it in this turn. */
  private batched(userId: number | null, manuscriptId: number): Promise<ReaderFacts> {
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(manuscriptId);
      if (queue) {
        queue.push({ userId, resolve, reject });
        return;
      }
      this.waiting.set(manuscriptId, [{ userId, resolve, reject }]);
      setImmediate(() => void this.flush(manuscriptId));
    });
  }

  private async flush(manuscriptId: number): Promise<void> {
    const batch = this.waiting.get(manuscriptId) ?? [];
    this.waiting.delete(manuscriptId);
    const userIds = [
      ...new Set(batch.flatMap((entry) => (entry.userId === null ? [] : [entry.userId]))),
    ];
    try {
      const db = this.ctx.db;
      const granted = await grantedUserIds(db, manuscriptId, userIds);
      const questionnaireOf = await questionnaireStatesOfUsers(db, manuscriptId, userIds);
      for (const entry of batch) {
        entry.resolve({
          granted: entry.userId !== null && granted.has(entry.userId),
          questionnaire: questionnaireOf(entry.userId),
        });
      }
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
  }
}

/** A reader's access from their facts (as loadReaderAccess answers for readers). */
const accessOf = (viewer: UserRow | null, facts: ReaderFacts): ReaderAccess => ({
  ...facts,
  certified18: viewer?.certified18At != null,
  openReport: false,
});
