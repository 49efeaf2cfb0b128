import { z } from 'zod';
import { failConversion, processConversion, recoverStaleConversions } from './processing.ts';
import type { JobDefinition } from '../../jobs/definition.ts';

const payload = z.object({
  /** The document_conversions row (the result_id the author polls). */
  conversionId: z.string().min(1),
});

/**
 * Converts an uploaded document in the worker-thread pool and saves it as the manuscript's new
 * draft. Retried with backoff; when it fails for good the conversion ends as FAILURE (never
 * stuck in PENDING/PROGRESS).
 */
export const convertDocumentJob: JobDefinition<typeof payload> = {
  id: 'convert-document',
  payload,
  concurrency: (ctx) => ctx.converter.threads,
  // One conversion per author at a time (their jobs are grouped by user): with several threads,
  // one author's backlog cannot take them all. The order between authors is their priority.
  groupConcurrency: 1,
  prepare: async (ctx) => {
    await ctx.converter.start(ctx.config.conversion);
  },
  handler: (ctx, { conversionId }, attempt) => processConversion(ctx, conversionId, attempt),
  onFailed: (ctx, { conversionId }) => failConversion(ctx, conversionId),
  recover: async (ctx) => {
    await recoverStaleConversions(ctx, convertDocumentJob);
  },
};
