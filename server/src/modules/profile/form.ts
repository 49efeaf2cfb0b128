import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  MESSAGES,
  PICTURE_MAX_BYTES,
  profileForm,
  type ProfileFormErrorResponse,
  type ProfileFormValues,
} from '@margins/common';
import { fieldErrorsOf } from '../../lib/field-errors.ts';
import { readMultipart } from '../../lib/multipart.ts';
import type { FieldErrors } from '../../lib/http-errors.ts';
import { checkPicture, type PictureType } from '../media/service.ts';

/** The profile form as it arrived, before validation. */
export interface ProfileInput {
  fields: unknown;
  picture: { bytes: Buffer; truncated: boolean } | null;
}

/** A checked picture, ready to store. */
export interface PictureUpload {
  contentType: PictureType;
  data: Buffer;
}

const FIELD_LIMIT = 40;
/** A picture past the limit is cut off and marked truncated (a field error), not thrown. */
const PARTS_OPTIONS = {
  limits: { fileSize: PICTURE_MAX_BYTES, files: 1, fields: FIELD_LIMIT, parts: FIELD_LIMIT + 1 },
  throwFileSizeLimit: false,
};

/**
 * Reads the profile form from multipart (text fields and an optional `picture` file, cut
 * off past PICTURE_MAX_BYTES) or from a JSON / urlencoded body.
 */
export async function readProfileInput(request: FastifyRequest): Promise<ProfileInput> {
  if (!request.isMultipart()) return { fields: request.body ?? {}, picture: null };
  let picture: ProfileInput['picture'] = null;
  const fields = await readMultipart(request, {
    ...PARTS_OPTIONS,
    repeatedFields: 'last',
    onFile: (file) => {
      // A form with an empty file input still sends a part: no name, no bytes.
      if (file.fieldName !== 'picture' || (file.bytes.byteLength === 0 && !file.fileName)) return;
      picture = { bytes: file.bytes, truncated: file.truncated };
    },
  });
  return { fields, picture };
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
export function sendFormErrors(reply: FastifyReply, errors: FieldErrors) {
  const body: ProfileFormErrorResponse = {
    error: MESSAGES.checkFormFields,
    errors,
    form: { errors },
  };
  return reply.status(400).send(body);
}
