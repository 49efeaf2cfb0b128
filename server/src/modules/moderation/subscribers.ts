import type { EventBus } from '../../events/bus.ts';
import { queueMail, wakeMailer } from '../notifications/service.ts';
import { manuscriptFlagMail } from './mails.ts';

/**
 * The mail side of moderation: the author hears of a flag on their manuscript, or of its
 * clearing. Written to the outbox in the moderator's transaction; the mailer woken after commit.
 */
export function subscribeModeration(bus: EventBus): void {
  bus.subscribe('manuscript.flagged', {
    name: 'flag mail',
    inTransaction: async (ctx, tx, { rows, payload }) => {
      await queueMail(
        ctx,
        tx,
        manuscriptFlagMail(ctx.config.publicUrl, {
          to: rows.author,
          title: rows.manuscript.title,
          manuscriptId: rows.manuscript.id,
          reason: payload.flagged ? payload.reason : null,
        }),
      );
    },
    afterCommit: (ctx) => wakeMailer(ctx),
  });
}
