import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  MESSAGES,
  PICTURE_MAX_BYTES,
  profileForm,
  type ProfileFormErrorResponse,
  type ProfileFormValues,
} from '@margins/common';
import { HttpError, type FieldErrors } from '../../lib/http-errors.ts';
import {
  checkFieldName,
  FormFields,
  multipartError,
  PROFILE_FIELD_LIMIT,
} from '../../lib/multipart-fields.ts';
import { checkPicture, PICTURE_SIZE_MESSAGE, type PictureType } from '../media/service.ts';

/** The profile form as it arrived, before validation. */
interface ProfileInput {
  fields: unknown;
  picture: { bytes: Buffer; truncated: boolean } | null;
}

/** A checked picture, ready to store. */
export interface PictureUpload {
  contentType: PictureType;
  data: Buffer;
}

/** A picture past the limit is cut off and marked truncated (a field error), not thrown. */
const PARTS_OPTIONS: Parameters<FastifyRequest['parts']>[0] & { throwFileSizeLimit: boolean } = {
  limits: {
    fileSize: PICTURE_MAX_BYTES,
    files: 1,
    fields: PROFILE_FIELD_LIMIT,
    parts: PROFILE_FIELD_LIMIT + 1,
  },
  throwFileSizeLimit: false,
};

/**
 * Reads the profile form from multipart (text fields and an optional `picture` file, cut
 * off past PICTURE_MAX_BYTES) or from a JSON / urlencoded body. A form that cannot be read
 * (prototype or repeated field names, control characters, a cut-off body) is a 400.
 */
export async function readProfileInput(request: FastifyRequest): Promise<ProfileInput> {
  if (!request.isMultipart()) return { fields: request.body ?? {}, picture: null };
  const fields = new FormFields();
  let picture: ProfileInput['picture'] = null;
  try {
    for await (const part of request.parts(PARTS_OPTIONS)) {
      checkFieldName(part.fieldname);
      if (part.type === 'field') {
        fields.add(
          part.fieldname,
          typeof part.value === 'string' ? part.value : String(part.value),
        );
        continue;
      }
      const bytes = await part.toBuffer();
      // A form with an empty file input still sends a part: no name, no bytes.
      if (part.fieldname !== 'picture' || (bytes.byteLength === 0 && !part.filename)) continue;
      picture = { bytes, truncated: part.file.truncated };
    }
  } catch (error) {
    throw multipartError(error, {
      fieldLimit: PROFILE_FIELD_LIMIT,
      fileTooLarge: new HttpError(413, PICTURE_SIZE_MESSAGE),
    });
  }
  return { fields: fields.values, picture };
}

/** Field name → messages of a zod error (the first path segment names the field). */
function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = typeof issue.path[0] === 'string' ? issue.path[0] : '_';
    (errors[field] ??= []).push(issue.message);
  }
  return errors;
}

/** Validates the fields and the picture together, so that every field error shows at once. */
export function validateProfileInput(
  input: ProfileInput,
):
  | { ok: true; values: ProfileFormValues; picture: PictureUpload | null }
  | { ok: false; errors: FieldErrors } {
  const parsed = profileForm.safeParse(input.fields);
  const errors = parsed.success ? {} : fieldErrorsOf(parsed.error);
  let picture: PictureUpload | null = null;
  if (input.picture) {
    const checked = checkPicture(input.picture.bytes, input.picture.truncated);
    if ('error' in checked) errors.picture = [checked.error];
    else picture = { contentType: checked.contentType, data: input.picture.bytes };
  }
  if (!parsed.success || errors.picture) return { ok: false, errors };
  return { ok: true, values: parsed.data, picture };
}

/** The 400 answer of the profile form: {error, errors, form: {errors}}. */
export function sendFormErrors(
  reply: FastifyReply,
  errors: FieldErrors,
  message: string = MESSAGES.checkFormFields,
) {
  const body: ProfileFormErrorResponse = {
    error: message,
    errors,
    form: { errors },
  };
  return reply.status(400).send(body);
}
