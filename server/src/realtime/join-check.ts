import type { AppContext, UserRow } from '../context.ts';
import { loadScope, type CommentScope } from '../modules/comments/scope.ts';
import type { RoomAccess } from './room-access.ts';

/**
 * The reading policy for joins, at the price of a join storm's size rather than a multiple:
 * joins to one manuscript arriving together share one statement (its row and every viewer's
 * grant and questionnaire state: RoomAccess.joinScope), read in flight only, never kept. A
 * shared read may have started before a change of who may read committed; so every such change
 * (recheckRoom, evictions: `changed()`, before their first await) moves the manuscript's
 * generation, and a join whose check began in an older one checks again, alone.
 */
export class JoinCheck {
  private readonly generations = new Map<number, number>();

  constructor(
    private readonly ctx: AppContext,
    private readonly access: RoomAccess,
  ) {}

  /** Who may read this manuscript may have changed: joins under way check again. */
  changed(manuscriptId: number): void {
    this.generations.set(manuscriptId, (this.generations.get(manuscriptId) ?? 0) + 1);
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
    const scope = await this.access.joinScope(viewer, manuscriptId);
    return {
      scope,
      settle: () =>
        (this.generations.get(manuscriptId) ?? 0) === generation
          ? scope
          : loadScope(this.ctx, viewer, manuscriptId),
    };
  }
}
