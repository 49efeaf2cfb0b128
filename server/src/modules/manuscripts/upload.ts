import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { MANUSCRIPT_FILE_FIELD, type ManuscriptUploadValues } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { detectFormat } from '../../conversion/detect-format.ts';
import { ConversionError } from '../../conversion/errors.ts';
import { assertDecodableText } from '../../conversion/text-encoding.ts';
import type { SourceFormat } from '../../conversion/types.ts';
import { schema, type Tx } from '../../db/index.ts';
import { convertDocumentJob } from './conversion-job.ts';
import { badRequest, conflict, HttpError } from '../../lib/http-errors.ts';
import { newMediaId } from '../media/service.ts';
import { byteaValue } from './bytea.ts';
import { placeInQueue } from './fair-queue.ts';
import { fitDerivedTitle } from './title.ts';
import type { UploadedFile } from './multipart.ts';
import { handOver } from './upload-handoff.ts';
import { checkWordEstimate } from './word-limit.ts';
import type { ManuscriptRow } from './presenter.ts';

export const STILL_INKING_MESSAGE =
  'This manuscript is still being processed. Wait until it is done, then upload the new draft.';
const UNKNOWN_GENRE_MESSAGE = 'Choose genres from the list.';

// Stored type of an uploaded original. HTML is stored as opaque bytes, so that no route can
// ever serve an author's raw HTML as a page of ours.
const ORIGINAL_CONTENT_TYPES: Record<SourceFormat, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  odt: 'application/vnd.oasis.opendocument.text',
  rtf: 'application/rtf',
  txt: 'text/plain',
  md: 'text/markdown',
  html: 'application/octet-stream',
};

/**
 * Decides the format of an upload by its content and name, before anything is written; a file
 * we cannot convert is refused with the converter's message (415 for a kind we do not take or
 * text in no encoding we can tell, 413 too large, 400 damaged, encrypted or empty).
 */
function checkUpload(file: UploadedFile): SourceFormat {
  try {
    const format = detectFormat(file.fileName, file.bytes);
    assertDecodableText(format, file.bytes);
    return format;
  } catch (error) {
    if (!(error instanceof ConversionError)) throw error;
    const status =
      error.code === 'unsupported_format' || error.code === 'legacy_doc'
        ? 415
        : error.code === 'too_large'
          ? 413
          : 400;
    throw new HttpError(status, error.message, { [MANUSCRIPT_FILE_FIELD]: [error.message] });
  }
}

/** Refuses genre ids that are not in the catalogue (400 on genre_ids). */
export async function checkGenres(tx: Tx, genreIds: number[] | undefined): Promise<void> {
  if (!genreIds || genreIds.length === 0) return;
  const found = await tx
    .select({ id: schema.genres.id })
    .from(schema.genres)
    .where(inArray(schema.genres.id, genreIds));
  if (found.length !== genreIds.length) throw badRequest({ genre_ids: [UNKNOWN_GENRE_MESSAGE] });
}

/** Replaces a manuscript's genres. */
export async function setGenres(tx: Tx, manuscriptId: number, genreIds: number[]): Promise<void> {
  await tx
    .delete(schema.manuscriptGenres)
    .where(eq(schema.manuscriptGenres.manuscriptId, manuscriptId));
  if (genreIds.length === 0) return;
  await tx
    .insert(schema.manuscriptGenres)
    .values(genreIds.map((genreId) => ({ manuscriptId, genreId })));
}

/** The provisional title of an upload: the file name without its extension. */
export function titleFromFileName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const stem = base
    .replace(/\.[^.]*$/, '')
    .replace(/[_]+/g, ' ')
    .trim();
  return fitDerivedTitle(stem || 'Untitled manuscript');
}

/**
 * A new manuscript from an upload: the manuscript (inking), its original file and the
 * conversion are written, and the conversion job enqueued, in one transaction.
 */
export async function createFromUpload(
  ctx: AppContext,
  user: UserRow,
  file: UploadedFile,
  values: ManuscriptUploadValues,
): Promise<{ manuscript: ManuscriptRow; conversionId: string }> {
  const format = checkUpload(file);
  const result = await ctx.db.transaction(async (tx) => {
    await checkGenres(tx, values.genre_ids);
    const [manuscript] = await tx
      .insert(schema.manuscripts)
      .values({
        userId: user.id,
        title: values.title ?? titleFromFileName(file.fileName),
        summary: values.summary ?? '',
        visibility: values.visibility,
        privateComments: values.private_comments,
        nsfw: values.nsfw,
        category: values.category,
        approvalsRequired: values.approvals_required,
        inking: true,
      })
      .returning();
    await setGenres(tx, manuscript!.id, values.genre_ids ?? []);
    const conversionId = await startConversion(ctx, tx, {
      user,
      manuscript: manuscript!,
      file,
      format,
      kind: 'new',
      useDocumentTitle: values.title === undefined,
    });
    return { manuscript: manuscript!, conversionId };
  });
  handOver(result.conversionId, file.bytes);
  ctx.jobs.wake(convertDocumentJob);
  return result;
}

/** A new draft of the text: converted by the same job; earlier versions are kept. */
export async function uploadDraft(
  ctx: AppContext,
  user: UserRow,
  manuscript: ManuscriptRow,
  file: UploadedFile,
): Promise<{ manuscript: ManuscriptRow; conversionId: string }> {
  const format = checkUpload(file);
  const result = await ctx.db.transaction(async (tx) => {
    // Only one conversion per manuscript at a time; the row lock orders concurrent drafts.
    const [locked] = await tx
      .select()
      .from(schema.manuscripts)
      .where(eq(schema.manuscripts.id, manuscript.id))
      .for('update');
    if (!locked || locked.inking) throw conflict(STILL_INKING_MESSAGE);
    const [updated] = await tx
      .update(schema.manuscripts)
      .set({ inking: true, updatedAt: new Date() })
      .where(eq(schema.manuscripts.id, manuscript.id))
      .returning();
    const conversionId = await startConversion(ctx, tx, {
      user,
      manuscript: updated!,
      file,
      format,
      kind: 'draft',
      useDocumentTitle: false,
    });
    return { manuscript: updated!, conversionId };
  });
  handOver(result.conversionId, file.bytes);
  ctx.jobs.wake(convertDocumentJob);
  return result;
}

/** Stores the original and the conversion row, and enqueues its job (same transaction). */
async function startConversion(
  ctx: AppContext,
  tx: Tx,
  input: {
    user: UserRow;
    manuscript: ManuscriptRow;
    file: UploadedFile;
    format: SourceFormat;
    kind: 'new' | 'draft';
    useDocumentTitle: boolean;
  },
): Promise<string> {
  const place = await placeInQueue(tx, input.user);
  await checkWordEstimate(ctx, tx, input.user, {
    format: input.format,
    byteLength: input.file.bytes.byteLength,
    replacesManuscriptId: input.kind === 'draft' ? input.manuscript.id : undefined,
  });
  const originalMediaId = newMediaId();
  await tx.insert(schema.media).values({
    id: originalMediaId,
    ownerId: input.user.id,
    manuscriptId: input.manuscript.id,
    contentType: ORIGINAL_CONTENT_TYPES[input.format],
    byteSize: input.file.bytes.byteLength,
    data: byteaValue(input.file.bytes),
  });
  const conversionId = randomUUID();
  await tx.insert(schema.documentConversions).values({
    id: conversionId,
    userId: input.user.id,
    manuscriptId: input.manuscript.id,
    kind: input.kind,
    originalMediaId,
    sourceFormat: input.format,
    fileName: (input.file.fileName.split(/[\\/]/).pop() ?? '').slice(0, 255) || 'upload',
    useDocumentTitle: input.useDocumentTitle,
    jobId: conversionId,
  });
  await ctx.jobs.send(tx, convertDocumentJob, { conversionId }, { id: conversionId, ...place });
  return conversionId;
}
