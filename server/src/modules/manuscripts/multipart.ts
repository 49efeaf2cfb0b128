import type { FastifyRequest } from 'fastify';
import { MANUSCRIPT_FILE_FIELD, MANUSCRIPT_UPLOAD_MAX_BYTES, MESSAGES } from '@margins/common';
import { badRequest, HttpError } from '../../lib/http-errors.ts';
import { readMultipart } from '../../lib/multipart.ts';

/** The one file of an upload form. */
export interface UploadedFile {
  fileName: string;
  bytes: Buffer;
}

export const FILE_TOO_LARGE_MESSAGE = `That file is larger than ${MANUSCRIPT_UPLOAD_MAX_BYTES / 1024 / 1024} MB. Remove large images or split the manuscript, and upload again.`;
export const CHOOSE_FILE_MESSAGE = 'Choose a file to upload.';

const uploads = new WeakMap<FastifyRequest, UploadedFile>();

/**
 * A preValidation hook for routes that take multipart or JSON: a multipart form becomes the
 * plain body the route's schema validates (repeated fields → arrays); its one file (in
 * `docxfile`) is kept for uploadedFile(). JSON and urlencoded bodies pass through.
 */
export async function multipartToBody(request: FastifyRequest): Promise<void> {
  if (!request.isMultipart()) return;
  let fields: Record<string, string | string[]>;
  try {
    fields = await readMultipart(request, {
      repeatedFields: 'array',
      onFile: (file) => {
        if (file.fieldName !== MANUSCRIPT_FILE_FIELD) {
          throw badRequest({
            [file.fieldName]: [`Send the file in the ${MANUSCRIPT_FILE_FIELD} field.`],
          });
        }
        uploads.set(request, { fileName: file.fileName || 'the file', bytes: file.bytes });
      },
    });
  } catch (error) {
    throw translateMultipartError(error);
  }
  (request as { body: unknown }).body = fields;
}

/** The file sent with a multipart request, or a 400 asking for one. */
export function uploadedFile(request: FastifyRequest): UploadedFile {
  const file = uploads.get(request);
  if (!file)
    throw badRequest({ [MANUSCRIPT_FILE_FIELD]: [CHOOSE_FILE_MESSAGE] }, CHOOSE_FILE_MESSAGE);
  return file;
}

function translateMultipartError(error: unknown): unknown {
  if (error instanceof HttpError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new HttpError(413, FILE_TOO_LARGE_MESSAGE);
  if (code === 'FST_FILES_LIMIT') {
    return badRequest(
      { [MANUSCRIPT_FILE_FIELD]: [MESSAGES.oneFileAtATime] },
      MESSAGES.oneFileAtATime,
    );
  }
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') {
    return badRequest({ _: ['Too many form fields.'] }, 'Too many form fields.');
  }
  if (code?.startsWith('FST_')) {
    return new HttpError(400, 'The form could not be read. Reload the page and try again.');
  }
  return error;
}
