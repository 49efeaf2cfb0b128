import { z } from 'zod';
import type { JobDefinition } from '../../jobs/definition.ts';
import { deliverOutboxMail, markMailFailed } from './delivery.ts';

const payload = z.object({
  /** The mail_outbox row to send. */
  outboxId: z.number().int().positive(),
});

/**
 * Delivers a notification mail after the transaction that wrote it commits; retried with
 * backoff by the queue, marked failed when the retries are used up. Never run in a request.
 */
export const deliverMailJob: JobDefinition<typeof payload> = {
  id: 'deliver-mail',
  payload,
  handler: (ctx, { outboxId }) => deliverOutboxMail(ctx, outboxId),
  onFailed: (ctx, { outboxId }) => markMailFailed(ctx, outboxId),
};
