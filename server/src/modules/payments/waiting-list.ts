import { PAYMENT_MESSAGES } from '@margins/common/messages-payments';
import type { AppContext } from '../../context.ts';
import { schema } from '../../db/index.ts';

/**
 * Puts an address on the waiting list once (a second time answers so, and sends nothing);
 * the confirmation mail is written to the outbox in the same transaction.
 */
export async function joinWaitingList(ctx: AppContext, email: string): Promise<string> {
  const mailId = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(schema.waitingList)
      .values({ email })
      .onConflictDoNothing()
      .returning();
    if (!row) return null;
    return ctx.mailer.enqueue(tx, {
      to: email,
      subject: 'You are on the Margins waiting list',
      text: `Thank you for your interest in Margins plans. We will write to ${email} when there is news.\n\nIf you did not ask for this, ignore this mail: we will not write again.\n`,
      html: `<p>Thank you for your interest in Margins plans. We will write to you when there is news.</p><p>If you did not ask for this, ignore this mail: we will not write again.</p>`,
    });
  });
  if (mailId === null) return PAYMENT_MESSAGES.waitingListAlready;
  ctx.mailer.deliver(mailId);
  return PAYMENT_MESSAGES.waitingListJoined;
}
