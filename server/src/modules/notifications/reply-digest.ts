// Replies to a reader's comments (issue 16): the comment's writer hears of them by mail, at most
// once an hour, all waiting replies in one mail. Replies are noted in reply_notifications in the
// reply's transaction; the digest runs every few minutes and mails only those not mailed in the
// last hour, so a first reply is told soon and a busy thread is told hourly.
import { and, asc, eq, gt, inArray, isNull, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { REPLY_MAIL_INTERVAL_MINUTES, THREAD_MESSAGES } from '@margins/common';
import type { AppContext } from '../../context.ts';
import type { EventBus } from '../../events/bus.ts';
import { schema, type Executor } from '../../db/index.ts';
import { escapeHtml, type MailMessage } from '../../lib/mail.ts';
import { queueNotification, wakeMailer } from './service.ts';
import { appLinks } from './templates.ts';

const DIGEST_EVERY_MS = 5 * 60_000;
const EXCERPT_LENGTH = 200;

/** Notes a reply for the writer of the comment it answers (not when they answer themselves). */
export function subscribeReplyNotifications(bus: EventBus): void {
  bus.subscribe('reply.created', {
    name: 'reply notification',
    inTransaction: async (_ctx, tx, { rows }) => {
      const { reply } = rows;
      if (reply.threadAuthorId === null || reply.threadAuthorId === reply.authorId) return;
      await tx
        .insert(schema.replyNotifications)
        .values({ recipientId: reply.threadAuthorId, replyId: reply.id });
    },
  });
}

/**
 * Mails every reader with waiting replies who was not mailed in the last hour; returns how many
 * mails were queued. Each reader's rows are claimed in one transaction with their mail, so two
 * processes never send the same replies twice.
 */
export async function sendReplyDigests(ctx: AppContext): Promise<number> {
  const { replyNotifications: notes } = schema;
  const recent = alias(notes, 'recent');
  const waiting = await ctx.db
    .selectDistinct({ recipientId: notes.recipientId })
    .from(notes)
    .where(
      and(
        isNull(notes.sentAt),
        notExists(
          ctx.db
            .select({ one: sql`1` })
            .from(recent)
            .where(
              and(
                eq(recent.recipientId, notes.recipientId),
                gt(
                  recent.sentAt,
                  sql`now() - make_interval(mins => ${REPLY_MAIL_INTERVAL_MINUTES})`,
                ),
              ),
            ),
        ),
      ),
    );
  let sent = 0;
  for (const { recipientId } of waiting) {
    const queued = await ctx.db.transaction((tx) => digestFor(ctx, tx, recipientId));
    if (queued) sent += 1;
  }
  if (sent > 0) wakeMailer(ctx);
  return sent;
}

async function digestFor(ctx: AppContext, tx: Executor, recipientId: number): Promise<boolean> {
  const { replyNotifications: notes, comments, users, manuscripts } = schema;
  const claimed = await tx
    .update(notes)
    .set({ sentAt: sql`now()` })
    .where(and(eq(notes.recipientId, recipientId), isNull(notes.sentAt)))
    .returning({ replyId: notes.replyId });
  if (claimed.length === 0) return false;
  const [recipient] = await tx.select().from(users).where(eq(users.id, recipientId));
  if (!recipient) return false;
  const replies = await tx
    .select({
      body: comments.body,
      manuscriptId: comments.manuscriptId,
      title: manuscripts.title,
      replier: users.displayName,
    })
    .from(comments)
    .innerJoin(users, eq(users.id, comments.authorId))
    .innerJoin(manuscripts, eq(manuscripts.id, comments.manuscriptId))
    .where(
      and(
        inArray(
          comments.id,
          claimed.map((row) => row.replyId),
        ),
        isNull(comments.deletedAt),
      ),
    )
    .orderBy(asc(comments.createdAt));
  if (replies.length === 0) return false;
  return queueNotification(
    ctx,
    tx,
    recipient,
    'comment_replies',
    replyDigestMail(ctx, recipient, replies),
  );
}

function replyDigestMail(
  ctx: AppContext,
  recipient: { email: string; displayName: string },
  replies: Array<{ body: string; manuscriptId: number; title: string; replier: string }>,
): MailMessage {
  const links = appLinks(ctx.config.publicUrl);
  const first = replies[0]!;
  const subject = THREAD_MESSAGES.replyMailSubject(first.title);
  const lines = replies.map((reply) => {
    const excerpt =
      reply.body.length > EXCERPT_LENGTH ? `${reply.body.slice(0, EXCERPT_LENGTH)}…` : reply.body;
    return `${reply.replier} on “${reply.title}”: ${excerpt}`;
  });
  const intro = `${replies.length === 1 ? 'Someone' : `${replies.length} people`} replied to your comments:`;
  const url = links.reader(first.manuscriptId);
  const footer = `You get this mail because of your notification preferences. Unsubscribe or change them: ${links.preferences}`;
  const text = [
    `Hello ${recipient.displayName},`,
    '',
    intro,
    '',
    ...lines,
    '',
    `Read the replies: ${url}`,
    '',
    '--',
    footer,
    '',
  ].join('\n');
  const html = [
    `<p>${escapeHtml(`Hello ${recipient.displayName},`)}</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    `<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`,
    `<p><a href="${escapeHtml(url)}">Read the replies</a></p>`,
    `<hr><p style="font-size:small;color:#666">You get this mail because of your notification preferences. <a href="${escapeHtml(links.preferences)}">Unsubscribe or change them</a>.</p>`,
  ].join('');
  return { to: recipient.email, subject, text, html };
}

/** Runs the digest every few minutes until the app closes. */
export function scheduleReplyDigests(ctx: AppContext, log: (error: unknown) => void): () => void {
  const every = setInterval(() => void sendReplyDigests(ctx).catch(log), DIGEST_EVERY_MS);
  every.unref();
  return () => clearInterval(every);
}
