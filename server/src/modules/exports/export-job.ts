import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { THREAD_MESSAGES } from '@margins/common';
import { schema } from '../../db/index.ts';
import type { JobDefinition } from '../../jobs/definition.ts';
import { buildDocxInWorker } from './docx-export.ts';
import { loadFeedbackData } from './feedback-data.ts';
import { exportFileName } from './file-names.ts';

const payload = z.object({ exportId: z.string().uuid() });

/**
 * Builds one DOCX export: reads the feedback, builds the document in a worker thread (writing
 * its progress to the row as it goes), stores the file on the row. Retried by the queue;
 * marked failed for good when the retries are used up.
 */
export const exportFeedbackJob: JobDefinition<typeof payload> = {
  id: 'export-feedback-docx',
  payload,
  handler: async (ctx, { exportId }) => {
    const [row] = await ctx.db
      .update(schema.feedbackExports)
      .set({ status: 'running', progress: 0.02 })
      .where(eq(schema.feedbackExports.id, exportId))
      .returning();
    if (!row) return;
    const data = await loadFeedbackData(ctx.db, row.manuscriptId);
    let written = 0;
    let pending: Promise<unknown> = Promise.resolve();
    const bytes = await buildDocxInWorker(data, (share) => {
      const progress = Math.round((0.05 + share * 0.9) * 100) / 100;
      if (progress - written < 0.05) return;
      written = progress;
      pending = pending.then(() =>
        ctx.db
          .update(schema.feedbackExports)
          .set({ progress })
          .where(eq(schema.feedbackExports.id, exportId))
          .catch(() => undefined),
      );
    });
    await pending;
    await ctx.db
      .update(schema.feedbackExports)
      .set({
        status: 'done',
        progress: 1,
        file: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        fileName: exportFileName(data.title, 'docx'),
        finishedAt: sql`now()`,
      })
      .where(eq(schema.feedbackExports.id, exportId));
  },
  onFailed: async (ctx, { exportId }) => {
    await ctx.db
      .update(schema.feedbackExports)
      .set({ status: 'failed', error: THREAD_MESSAGES.exportFailed, finishedAt: sql`now()` })
      .where(eq(schema.feedbackExports.id, exportId));
  },
};
