import type { FastifyRequest } from 'fastify';

/** One file part of a multipart form, read whole (or cut off at the size limit). */
export interface MultipartFile {
  fieldName: string;
  /** As the browser sent it; '' when the file input was left empty. */
  fileName: string;
  bytes: Buffer;
  /** Cut off at the size limit (only when throwFileSizeLimit is false). */
  truncated: boolean;
}

export interface MultipartReadOptions {
  /** @fastify/multipart's limits for this form (else the app's). */
  limits?: NonNullable<Parameters<FastifyRequest['parts']>[0]>['limits'];
  /** false: a file past the size limit is cut off and marked truncated instead of throwing. */
  throwFileSizeLimit?: boolean;
  /** A field sent more than once: all its values as an array, or the last one. */
  repeatedFields: 'array' | 'last';
  /** Called for each file, in order; may throw to refuse the form. */
  onFile(file: MultipartFile): void | Promise<void>;
}

/**
 * The one multipart reader: the text fields of a form, and each of its files handed to onFile.
 * @fastify/multipart's errors (FST_…) are thrown as they are: the caller turns them into answers.
 */
export async function readMultipart(
  request: FastifyRequest,
  options: MultipartReadOptions,
): Promise<Record<string, string | string[]>> {
  const fields: Record<string, string | string[]> = {};
  const parts = request.parts({
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.throwFileSizeLimit === false ? { throwFileSizeLimit: false } : {}),
  } as Parameters<FastifyRequest['parts']>[0]);
  for await (const part of parts) {
    if (part.type === 'file') {
      const bytes = await part.toBuffer();
      await options.onFile({
        fieldName: part.fieldname,
        fileName: part.filename,
        bytes,
        truncated: part.file.truncated,
      });
      continue;
    }
    const value = typeof part.value === 'string' ? part.value : String(part.value);
    const existing = fields[part.fieldname];
    if (existing === undefined || options.repeatedFields === 'last') {
      fields[part.fieldname] = value;
    } else {
      fields[part.fieldname] = [...(Array.isArray(existing) ? existing : [existing]), value];
    }
  }
  return fields;
}
