import { createRequire } from 'node:module';
import { desc, eq } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import type { Config } from '../config.ts';
import { schema, type Db, type Executor } from '../db/index.ts';

/**
 * An SMTP transport. nodemailer is loaded on the first one: without SMTP_URL (development, the
 * /dev/mail mailbox) it is never needed, and loading it cost every start ~13 MB and ~30 ms.
 */
export function createSmtpTransport(smtpUrl: string): Transporter {
  const nodemailer = createRequire(import.meta.url)('nodemailer') as typeof import('nodemailer');
  return nodemailer.createTransport(smtpUrl);
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * A one-click unsubscribe URL (RFC 8058): sent as List-Unsubscribe with
   * List-Unsubscribe-Post, so a mail client can offer "Unsubscribe" and POST to it.
   */
  listUnsubscribe?: string | null;
}

/** The RFC 8058 one-click unsubscribe headers of an outbox row (none without a URL). */
export function listUnsubscribeHeaders(url: string | null): Record<string, string> | undefined {
  if (!url) return undefined;
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

const RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000];

/**
 * Every mail is written to the outbox first. With SMTP_URL it is then delivered (retried
 * with backoff); without it, outside production, it is kept for the /dev/mail mailbox.
 */
export class Mailer {
  private readonly transport: Transporter | null;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly log: { warn(msg: string): void; error(obj: unknown, msg: string): void },
  ) {
    this.transport = config.smtpUrl ? createSmtpTransport(config.smtpUrl) : null;
  }

  get devMailboxEnabled(): boolean {
    return !this.config.smtpUrl && this.config.env !== 'production';
  }

  /** Writes the mail to the outbox in the caller's transaction; call deliver(id) after commit. */
  async enqueue(executor: Executor, message: MailMessage): Promise<number> {
    const [row] = await executor
      .insert(schema.mailOutbox)
      .values({ ...message, status: this.transport ? 'pending' : 'kept' })
      .returning({ id: schema.mailOutbox.id });
    return row!.id;
  }

  /** Enqueues and delivers outside any transaction. */
  async send(message: MailMessage): Promise<void> {
    const id = await this.enqueue(this.db, message);
    this.deliver(id);
  }

  /** Starts delivery of an outbox row in the background; never throws. */
  deliver(id: number, attempt = 0): void {
    if (!this.transport) return;
    void this.tryDeliver(id, attempt);
  }

  private async tryDeliver(id: number, attempt: number): Promise<void> {
    const [row] = await this.db
      .select()
      .from(schema.mailOutbox)
      .where(eq(schema.mailOutbox.id, id));
    if (!row || row.status === 'sent') return;
    try {
      await this.transport!.sendMail({
        from: this.config.mailFrom,
        to: row.to,
        subject: row.subject,
        text: row.text,
        html: row.html,
        headers: listUnsubscribeHeaders(row.listUnsubscribe),
      });
      await this.db
        .update(schema.mailOutbox)
        .set({ status: 'sent', sentAt: new Date(), attempts: attempt + 1 })
        .where(eq(schema.mailOutbox.id, id));
    } catch (error) {
      const failed = attempt + 1 >= RETRY_DELAYS_MS.length;
      await this.db
        .update(schema.mailOutbox)
        .set({
          status: failed ? 'failed' : 'pending',
          attempts: attempt + 1,
          lastError: String(error),
        })
        .where(eq(schema.mailOutbox.id, id))
        .catch(() => undefined);
      if (failed) {
        this.log.error(error, `mail ${id} to ${row.to} failed for good`);
        return;
      }
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.deliver(id, attempt + 1);
      }, RETRY_DELAYS_MS[attempt]);
      timer.unref();
      this.timers.add(timer);
    }
  }

  /** The kept mails, newest first (development mailbox). */
  async list(limit = 100) {
    return this.db
      .select()
      .from(schema.mailOutbox)
      .orderBy(desc(schema.mailOutbox.id))
      .limit(limit);
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.transport?.close();
  }
}

/** Escapes text for an HTML mail body. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
