import type { NotificationKey } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import type { Executor } from '../../db/index.ts';
import type { MailMessage } from '../../lib/mail.ts';
import { deliverMailJob } from './mail-job.ts';
import { mayNotify } from './policy.ts';
import { receivedApprovalMail } from './templates.ts';

/**
 * Writes a mail to the outbox and, when SMTP is configured, its deliver-mail job, both in the
 * caller's transaction: the mail exists exactly when the change that caused it commits. Call
 * wakeMailer() after the commit. Without SMTP the mail is kept for the development mailbox.
 */
export async function queueMail(
  ctx: AppContext,
  tx: Executor,
  message: MailMessage,
): Promise<void> {
  const outboxId = await ctx.mailer.enqueue(tx, message);
  if (ctx.config.smtpUrl) await ctx.jobs.send(tx, deliverMailJob, { outboxId });
}

/** queueMail for a notification, only when the recipient's preferences allow it. */
export async function queueNotification(
  ctx: AppContext,
  tx: Executor,
  recipient: UserRow,
  key: NotificationKey,
  message: MailMessage,
): Promise<boolean> {
  if (!(await mayNotify(tx, recipient, key))) return false;
  await queueMail(ctx, tx, message);
  return true;
}

/** After a commit that may have queued mail: deliver now rather than at the next poll. */
export function wakeMailer(ctx: AppContext): void {
  if (ctx.config.smtpUrl) ctx.jobs.wake(deliverMailJob);
}

/** Tells a reader they may now read (an access request or questionnaire answers approved). */
export function notifyApproved(
  ctx: AppContext,
  tx: Executor,
  reader: UserRow,
  manuscript: { id: number; title: string },
  reason: 'questionnaire' | 'request',
): Promise<boolean> {
  return queueNotification(
    ctx,
    tx,
    reader,
    'received_approval',
    receivedApprovalMail(ctx.config.publicUrl, {
      to: reader,
      title: manuscript.title,
      manuscriptId: manuscript.id,
      reason,
    }),
  );
}
