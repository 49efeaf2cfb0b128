import { setImmediate as nextTurn } from 'node:timers/promises';
import { and, eq, inArray, isNull, max } from 'drizzle-orm';
import { MESSAGES, type DocumentState } from '@margins/common';
import type { AppContext } from '../../context.ts';
import type { ConversionResult } from '../../conversion/index.ts';
import { schema, type Tx } from '../../db/index.ts';
import { imageMediaId } from '../../jobs/image-media-id.ts';
import type { JobAttempt, JobDefinition } from '../../jobs/definition.ts';
import { reanchorHighlights } from '../comments/anchoring.ts';
import { byteaAsBase64, byteaValue, fromBase64 } from './bytea.ts';
import { take as takeUpload } from './upload-handoff.ts';
import { prepareVersionPart } from './version-wire.ts';
import { fitDerivedTitle } from './title.ts';
import { wordLimitFor, wordsInUse } from './word-limit.ts';

type ConversionRow = typeof schema.documentConversions.$inferSelect;

const IN_FLIGHT: DocumentState[] = ['PENDING', 'PROGRESS'];

/** What the author reads while nothing more specific is known. */
export const CONVERSION_MESSAGES: Record<DocumentState, string> = {
  PENDING: 'Waiting for a helper to pick up your document.',
  PROGRESS: 'Inking your manuscript ...',
  SUCCESS: MESSAGES.manuscriptSaved,
  OVER_WORD_LIMIT: MESSAGES.overWordLimit,
  FAILURE: MESSAGES.processFailed,
};
const MANUSCRIPT_GONE_MESSAGE = 'The manuscript was deleted before its document was processed.';

const isFinished = (status: DocumentState): boolean => !IN_FLIGHT.includes(status);

/** Image media ids of one conversion start with this (stable across retries). */
const imagePrefixOf = (conversionId: string): string => conversionId.replace(/-/g, '');

export async function findConversion(
  executor: AppContext['db'] | Tx,
  id: string,
): Promise<ConversionRow | null> {
  const [row] = await executor
    .select()
    .from(schema.documentConversions)
    .where(eq(schema.documentConversions.id, id));
  return row ?? null;
}

/**
 * One attempt of the conversion job: converts the stored original in the worker pool and saves
 * the draft. A document that cannot be converted fails at once (retrying cannot help); anything
 * else is thrown to be retried, and ends as FAILURE on the last attempt.
 *
 * On the embedded database every statement runs on the main thread, and statements chained by
 * awaits run in one turn of the event loop. The steps below each take their own turn, so that
 * requests waiting meanwhile (readers, health checks) are served between them, not after all.
 */
export async function processConversion(
  ctx: AppContext,
  conversionId: string,
  attempt: JobAttempt,
): Promise<void> {
  await nextTurn();
  const conversion = await findConversion(ctx.db, conversionId);
  if (!conversion || isFinished(conversion.status)) return;
  if (conversion.manuscriptId === null) {
    await finishFailure(ctx, conversionId, MANUSCRIPT_GONE_MESSAGE);
    return;
  }
  await ctx.db
    .update(schema.documentConversions)
    .set({ status: 'PROGRESS', attempts: attempt.retryCount + 1, updatedAt: new Date() })
    .where(
      and(
        eq(schema.documentConversions.id, conversionId),
        inArray(schema.documentConversions.status, IN_FLIGHT),
      ),
    );
  try {
    await nextTurn();
    const original = await loadOriginal(ctx, conversion);
    if (!original) {
      await finishFailure(ctx, conversionId, MESSAGES.processFailed);
      return;
    }
    const started = performance.now();
    const outcome = await ctx.converter.convert(
      original,
      conversion.sourceFormat,
      imagePrefixOf(conversionId),
    );
    const elapsed = (performance.now() - started) / 1000;
    const seconds = Math.round(elapsed * 1000) / 1000;
    ctx.metrics.conversion(conversion.sourceFormat, elapsed, outcome.ok ? 'converted' : 'refused');
    if (!outcome.ok) {
      ctx.log.info(
        { conversion: conversionId, format: conversion.sourceFormat, seconds, code: outcome.code },
        'document refused',
      );
      await finishFailure(ctx, conversionId, outcome.message);
      return;
    }
    const { words, fallback } = outcome.result;
    ctx.log.info(
      { conversion: conversionId, format: conversion.sourceFormat, seconds, words, fallback },
      'document converted',
    );
    await saveResult(ctx, conversionId, outcome.result);
    await nextTurn(); // the job queue marks the job done in a turn of its own
  } catch (error) {
    if (attempt.isLastAttempt) await finishFailure(ctx, conversionId, MESSAGES.processFailed);
    throw error;
  }
}

/** Ends a conversion as FAILURE (the job failed for good); a finished one is left alone. */
export async function failConversion(ctx: AppContext, conversionId: string): Promise<void> {
  await finishFailure(ctx, conversionId, MESSAGES.processFailed);
}

/**
 * Conversions still PENDING/PROGRESS whose job is gone or over (a crash between the job's end
 * and our update, a job deleted by hand …) end as FAILURE instead of staying stuck.
 */
export async function recoverStaleConversions(
  ctx: AppContext,
  job: JobDefinition,
): Promise<number> {
  const inFlight = await ctx.db
    .select({ id: schema.documentConversions.id, jobId: schema.documentConversions.jobId })
    .from(schema.documentConversions)
    .where(inArray(schema.documentConversions.status, IN_FLIGHT));
  let failed = 0;
  for (const conversion of inFlight) {
    const state = conversion.jobId ? await ctx.jobs.stateOf(job, conversion.jobId) : null;
    if (state === null || state === 'failed' || state === 'cancelled' || state === 'completed') {
      await failConversion(ctx, conversion.id);
      failed += 1;
    }
  }
  return failed;
}

async function loadOriginal(
  ctx: AppContext,
  conversion: ConversionRow,
): Promise<Uint8Array | null> {
  if (!conversion.originalMediaId) return null;
  const handedOver = takeUpload(conversion.id);
  if (handedOver) return handedOver;
  const [row] = await ctx.db
    .select({ base64: byteaAsBase64(schema.media.data) })
    .from(schema.media)
    .where(eq(schema.media.id, conversion.originalMediaId));
  return row ? fromBase64(row.base64) : null;
}

/** Saves a converted draft, unless it takes the author over their word limit. */
async function saveResult(
  ctx: AppContext,
  conversionId: string,
  result: ConversionResult,
): Promise<void> {
  let savedVersionId: number | null = null;
  await ctx.db.transaction(async (tx) => {
    const [conversion] = await tx
      .select()
      .from(schema.documentConversions)
      .where(eq(schema.documentConversions.id, conversionId))
      .for('update');
    if (!conversion || isFinished(conversion.status)) return;
    // One author's conversions finish one at a time: two uploads cannot both slip under the limit.
    const [author] = await tx
      .select()
      .from(schema.users)
      .where(eq(schema.users.id, conversion.userId))
      .for('update');
    const [manuscript] = conversion.manuscriptId
      ? await tx
          .select()
          .from(schema.manuscripts)
          .where(eq(schema.manuscripts.id, conversion.manuscriptId))
          .for('update')
      : [];
    if (!author || !manuscript) {
      await finishFailureInTx(tx, conversion, MANUSCRIPT_GONE_MESSAGE, 'FAILURE');
      return;
    }
    const limit = await wordLimitFor(ctx, author, tx);
    const otherWords = await wordsInUse(tx, author.id, manuscript.id);
    if (otherWords + result.words > limit) {
      await finishFailureInTx(tx, conversion, MESSAGES.overWordLimit, 'OVER_WORD_LIMIT');
      return;
    }

    const prefix = imagePrefixOf(conversion.id);
    if (result.images.length > 0) {
      await tx
        .insert(schema.media)
        .values(
          result.images.map((image) => {
            return {
              id: imageMediaId(prefix, image.id),
              ownerId: author.id,
              manuscriptId: manuscript.id,
              contentType: image.contentType,
              byteSize: image.data.byteLength,
              data: byteaValue(image.data),
            };
          }),
        )
        .onConflictDoNothing();
    }
    const [last] = await tx
      .select({ number: max(schema.manuscriptVersions.number) })
      .from(schema.manuscriptVersions)
      .where(eq(schema.manuscriptVersions.manuscriptId, manuscript.id));
    const [version] = await tx
      .insert(schema.manuscriptVersions)
      .values({
        manuscriptId: manuscript.id,
        number: (last?.number ?? 0) + 1,
        originalMediaId: conversion.originalMediaId,
        sourceFormat: conversion.sourceFormat,
        fileName: conversion.fileName,
        html: result.html,
        toc: result.toc,
        words: result.words,
        report: result.report,
      })
      .returning({ id: schema.manuscriptVersions.id });
    const documentTitle = result.title ? fitDerivedTitle(result.title) : '';
    await tx
      .update(schema.manuscripts)
      .set({
        currentVersionId: version!.id,
        words: result.words,
        inking: false,
        updatedAt: new Date(),
        ...(conversion.useDocumentTitle && documentTitle ? { title: documentTitle } : {}),
      })
      .where(eq(schema.manuscripts.id, manuscript.id));
    // A new draft is current: every highlight is placed in it again (or kept as an orphan).
    if (conversion.kind === 'draft') {
      await reanchorHighlights(tx, manuscript.id, { id: version!.id, html: result.html });
    }
    await tx
      .update(schema.documentConversions)
      .set({
        status: 'SUCCESS',
        message: CONVERSION_MESSAGES.SUCCESS,
        versionId: version!.id,
        finishedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(schema.documentConversions.id, conversion.id));
    savedVersionId = version!.id;
  });
  // The reader's compressed text, made now so that no reader waits for it (issue 11); a
  // failure here only defers it to the first read.
  if (savedVersionId !== null) {
    await prepareVersionPart(ctx, savedVersionId).catch((error: unknown) => {
      ctx.log.warn({ err: error, versionId: savedVersionId }, 'reader text not precompressed');
    });
  }
}

async function finishFailure(
  ctx: AppContext,
  conversionId: string,
  message: string,
  status: 'FAILURE' | 'OVER_WORD_LIMIT' = 'FAILURE',
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [conversion] = await tx
      .select()
      .from(schema.documentConversions)
      .where(eq(schema.documentConversions.id, conversionId))
      .for('update');
    if (!conversion || isFinished(conversion.status)) return;
    await finishFailureInTx(tx, conversion, message, status);
  });
}

/**
 * A first upload that failed is removed with everything of it (its media go by cascade); a
 * failed new draft leaves the manuscript as it was, without that draft's original.
 */
async function finishFailureInTx(
  tx: Tx,
  conversion: ConversionRow,
  message: string,
  status: 'FAILURE' | 'OVER_WORD_LIMIT',
): Promise<void> {
  if (conversion.manuscriptId !== null && conversion.kind === 'new') {
    await tx
      .delete(schema.manuscripts)
      .where(
        and(
          eq(schema.manuscripts.id, conversion.manuscriptId),
          isNull(schema.manuscripts.currentVersionId),
        ),
      );
  }
  if (conversion.originalMediaId !== null) {
    await tx.delete(schema.media).where(eq(schema.media.id, conversion.originalMediaId));
  }
  if (conversion.manuscriptId !== null) {
    await tx
      .update(schema.manuscripts)
      .set({ inking: false, updatedAt: new Date() })
      .where(eq(schema.manuscripts.id, conversion.manuscriptId));
  }
  await tx
    .update(schema.documentConversions)
    .set({ status, message, finishedAt: new Date(), updatedAt: new Date() })
    .where(eq(schema.documentConversions.id, conversion.id));
}
