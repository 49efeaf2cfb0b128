import type { FastifyRequest } from 'fastify';
import { MANUSCRIPT_FILE_FIELD, MANUSCRIPT_UPLOAD_MAX_BYTES } from '@margins/common';
import { cleanFileName } from '../../lib/file-names.ts';
import { badRequest, HttpError } from '../../lib/http-errors.ts';
import {
  checkFieldName,
  FORM_FIELD_LIMIT,
  FormFields,
  multipartError,
} from '../../lib/multipart-fields.ts';

/** The one file of an upload form. */
export interface UploadedFile {
  fileName: string;
  bytes: Buffer;
}

export const FILE_TOO_LARGE_MESSAGE = `That file is larger than ${MANUSCRIPT_UPLOAD_MAX_BYTES / 1024 / 1024} MB. Remove large images or split the manuscript, and upload again.`;
export const CHOOSE_FILE_MESSAGE = 'Choose a file to upload.';

const uploads = new WeakMap<FastifyRequest, UploadedFile>();
/** The fields of the manuscript forms that may repeat (a list of genres). */
const LIST_FIELDS: ReadonlySet<string> = new Set(['genre_ids']);

/**
 * A preValidation hook for routes that take multipart or JSON: a multipart form becomes the
 * plain body the route's schema validates (repeated fields → arrays); its one file (in
 * `docxfile`) is kept for uploadedFile(). JSON and urlencoded bodies pass through.
 */
export async function multipartToBody(request: FastifyRequest): Promise<void> {
  if (!request.isMultipart()) return;
  const fields = new FormFields(LIST_FIELDS);
  try {
    for await (const part of request.parts()) {
      checkFieldName(part.fieldname);
      if (part.type === 'file') {
        if (part.fieldname !== MANUSCRIPT_FILE_FIELD) {
          await part.toBuffer();
          throw badRequest({
            [part.fieldname]: [`Send the file in the ${MANUSCRIPT_FILE_FIELD} field.`],
          });
        }
        uploads.set(request, {
          // The sender's name can hold line breaks, NUL, anything: only a clean one goes on.
          fileName: cleanFileName(part.filename ?? '', 'the file'),
          bytes: await part.toBuffer(),
        });
        continue;
      }
      fields.add(part.fieldname, typeof part.value === 'string' ? part.value : String(part.value));
    }
  } catch (error) {
    throw multipartError(error, {
      fieldLimit: FORM_FIELD_LIMIT,
      fileTooLarge: new HttpError(413, FILE_TOO_LARGE_MESSAGE),
    });
  }
  (request as { body: unknown }).body = fields.values;
}

/** The file sent with a multipart request, or a 400 asking for one. */
export function uploadedFile(request: FastifyRequest): UploadedFile {
  const file = uploads.get(request);
  if (!file)
    throw badRequest({ [MANUSCRIPT_FILE_FIELD]: [CHOOSE_FILE_MESSAGE] }, CHOOSE_FILE_MESSAGE);
  return file;
}
