import { eq } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import type { Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { createSmtpTransport, listUnsubscribeHeaders } from '../../lib/mail.ts';

/** One SMTP transport per configuration (a test app with its own SMTP server gets its own). */
const transports = new WeakMap<Config, Transporter>();

function transportFor(config: Config): Transporter | null {
  if (!config.smtpUrl) return null;
  let transport = transports.get(config);
  if (!transport) {
    transport = createSmtpTransport(config.smtpUrl);
    transports.set(config, transport);
  }
  return transport;
}

/**
 * The same Message-ID on every attempt at one outbox mail: an attempt cut off after the relay
 * took the mail but before it was marked sent (a worker killed in between) is sent again by the
 * retry, and mail systems recognise the second copy as the same message.
 */
export function messageIdOf(
  config: Pick<Config, 'publicUrl'>,
  row: { id: number; createdAt: Date },
): string {
  return `<mail-${row.id}-${row.createdAt.getTime()}@${new URL(config.publicUrl).hostname}>`;
}

/**
 * Sends one outbox mail over SMTP (an attempt of the deliver-mail job). Throws on failure, so
 * the job queue retries it with backoff; a mail already sent, or kept for the development
 * mailbox, is left alone.
 */
export async function deliverOutboxMail(ctx: AppContext, outboxId: number): Promise<void> {
  const [row] = await ctx.db
    .select()
    .from(schema.mailOutbox)
    .where(eq(schema.mailOutbox.id, outboxId));
  if (!row || row.status !== 'pending') return;
  const transport = transportFor(ctx.config);
  if (!transport) return;
  try {
    await transport.sendMail({
      from: ctx.config.mailFrom,
      to: row.to,
      subject: row.subject,
      text: row.text,
      html: row.html,
      headers: listUnsubscribeHeaders(row.listUnsubscribe),
      messageId: messageIdOf(ctx.config, row),
    });
  } catch (error) {
    await ctx.db
      .update(schema.mailOutbox)
      .set({ attempts: row.attempts + 1, lastError: String(error) })
      .where(eq(schema.mailOutbox.id, outboxId));
    throw error;
  }
  await ctx.db
    .update(schema.mailOutbox)
    .set({ status: 'sent', sentAt: new Date(), attempts: row.attempts + 1, lastError: null })
    .where(eq(schema.mailOutbox.id, outboxId));
}

/** Marks a mail failed for good once its job has used up its retries. */
export async function markMailFailed(ctx: AppContext, outboxId: number): Promise<void> {
  await ctx.db
    .update(schema.mailOutbox)
    .set({ status: 'failed' })
    .where(eq(schema.mailOutbox.id, outboxId));
}
