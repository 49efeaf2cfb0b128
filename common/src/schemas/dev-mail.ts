import { z } from 'zod';

/** GET /dev/mail (JSON): every mail the development mailbox kept. */
export const devMailResponse = z.object({
  messages: z.array(
    z.object({
      id: z.number(),
      to: z.string(),
      subject: z.string(),
      text: z.string(),
      html: z.string(),
      /** ISO-8601 time the mail was written. */
      created: z.string(),
    }),
  ),
});
export type DevMailResponse = z.infer<typeof devMailResponse>;
export type DevMail = DevMailResponse['messages'][number];
