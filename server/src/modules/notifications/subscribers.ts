import type { EventBus } from '../../events/bus.ts';
import { notifyApproved, wakeMailer } from './service.ts';

/**
 * The mail side of the domain events. The mail is written to the outbox in the writer's
 * transaction (it exists exactly when the change commits) and the mailer woken after commit.
 */
export function subscribeNotifications(bus: EventBus): void {
  bus.subscribe('access.granted', {
    name: 'approval mail',
    inTransaction: async (ctx, tx, { rows, payload }) => {
      await notifyApproved(ctx, tx, rows.reader, rows.manuscript, payload.via);
    },
    afterCommit: (ctx) => wakeMailer(ctx),
  });
}
