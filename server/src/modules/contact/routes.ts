import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contactBody, errorBody, MESSAGES, okBody } from '@margins/common';
import { schema } from '../../db/index.ts';
import { escapeHtml } from '../../lib/mail.ts';
import { tooMany } from '../../lib/http-errors.ts';
import { renderPage } from '../pages/render.ts';

/** GET shows the contact page; POST stores the message and mails the admins. */
export async function contactRoutes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = root;

  app.get('/contact', { schema: { hide: true } }, (request, reply) =>
    renderPage(request, reply, 'contact'),
  );

  app.post(
    '/contact',
    {
      schema: {
        tags: ['contact'],
        body: contactBody,
        response: { 200: okBody, 400: errorBody },
      },
    },
    async (request) => {
      if (!(await ctx.limits.mailPerAccount.hit(`contact:${request.ip}`))) throw tooMany();
      const body = request.body;
      const admins = await ctx.db.transaction(async (tx) => {
        await tx
          .insert(schema.contactMessages)
          .values({ ...body, userId: request.user?.id ?? null });
        return tx
          .select({ email: schema.users.email })
          .from(schema.users)
          .where(eq(schema.users.role, 'admin'));
      });
      for (const admin of admins) {
        await ctx.mailer.send({
          to: admin.email,
          subject: `Contact: ${body.subject}`,
          text: `From ${body.name} <${body.email}>\n\n${body.message}\n`,
          html: `<p>From ${escapeHtml(body.name)} &lt;${escapeHtml(body.email)}&gt;</p><p>${escapeHtml(body.message).replace(/\n/g, '<br>')}</p>`,
        });
      }
      request.log.info({ contact: body.email }, MESSAGES.contactSent);
      return { ok: true as const };
    },
  );
}
