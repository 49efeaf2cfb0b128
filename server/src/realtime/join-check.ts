import type { AppContext, UserRow } from '../context.ts';
import type { ManuscriptRow } from '../modules/manuscripts/presenter.ts';
import { findManuscript } from '../modules/manuscripts/queries.ts';
import { loadScope, type CommentScope } from '../modules/comments/scope.ts';
import type { RoomAccess } from './room-access.ts';

/**
 * The reading policy for joins, at the price of a join storm's size rather than a multiple:
 * joins to one manuscript arriving together share one read of its row (in flight only, never
 * kept), and their viewers' own facts (grant, questionnaire) are read together too (RoomAccess).
 * A shared read may have started before a change of who may read committed; so every such change (recheckRoom, evictions: `changed()`, before their first await) moves the
 * manuscript's generation, and a join whose check began in an older one checks again, alone.
 */
export class JoinCheck {
  private readonly reads = new Map<number, Promise<ManuscriptRow | null>>();
  private readonly generations = new Map<number, number>();

  constructor(
    private readonly ctx: AppContext,
    private readonly access: RoomAccess,
  ) {}

  /** Who may read this manuscript may have changed: joins under way check again. */
  changed(manuscriptId: number): void {
    this.generations.set(manuscriptId, (this.generations.get(manuscriptId) ?? 0) + 1);
    this.reads.delete(manuscriptId);
  }

  /**
   * The viewer's scope; `settle()` must be called right before the socket joins (no await in
   * between): it answers the scope to join with, read again if a change came meanwhile.
   */
  async scope(
    viewer: UserRow | null,
    manuscriptId: number,
  ): Promise<{ scope: CommentScope; settle: () => CommentScope | Promise<CommentScope> }> {
    const generation = this.generations.get(manuscriptId) ?? 0;
    const scope = await this.access.scope(viewer, await this.manuscript(manuscriptId));
    return {
      scope,
      settle: () =>
        (this.generations.get(manuscriptId) ?? 0) === generation
          ? scope
          : loadScope(this.ctx, viewer, manuscriptId),
    };
  }

  private manuscript(id: number): Promise<ManuscriptRow | null> {
    let read = this.reads.get(id);
    if (!read) {
      read = findManuscript(this.ctx.db, id).finally(() => {
        if (this.reads.get(id) === read) this.reads.delete(id);
      });
      this.reads.set(id, read);
    }
    return read;
  }
}
