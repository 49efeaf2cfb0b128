import type { AppContext } from '../../context.ts';

/**
 * Removes readers whose access ended from the manuscript's socket room (manuscript-{id}). It
 * never fails the change that revoked the access: should it fail, the room's own checks still
 * refuse those readers' next event.
 */
export async function evictReaders(
  ctx: AppContext,
  manuscriptId: number,
  userIds: number[],
): Promise<void> {
  for (const userId of userIds) {
    await ctx.realtime?.evictFromRoom(manuscriptId, userId).catch(() => undefined);
  }
}

/** After a change of who may read (the invite type, a new questionnaire): recheck the room. */
export async function recheckRoom(ctx: AppContext, manuscriptId: number): Promise<void> {
  await ctx.realtime?.recheckRoom(manuscriptId).catch(() => undefined);
}
