import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { devMailResponse, MESSAGES } from '@margins/common';
import { forbidden, notFound } from '../../lib/http-errors.ts';
import { renderPage, wantsJson } from '../pages/render.ts';
import { canReadDevMail } from './policy.ts';

/** The development mailbox of API.md: only without SMTP_URL, outside production, from this machine. */
export async function devMailRoutes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/dev/mail',
    { schema: { tags: ['development'], response: { 200: devMailResponse } } },
    async (request, reply) => {
      if (!root.ctx.mailer.devMailboxEnabled) throw notFound();
      if (!canReadDevMail(request)) throw forbidden(MESSAGES.devMailLoopbackOnly);
      if (!wantsJson(request)) return renderPage(request, reply, 'dev-mail');
      const rows = await root.ctx.mailer.list();
      return {
        messages: rows.map((row) => ({
          id: row.id,
          to: row.to,
          subject: row.subject,
          text: row.text,
          html: row.html,
          created: row.createdAt.toISOString(),
        })),
      };
    },
  );
}
