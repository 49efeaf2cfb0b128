// Field schemas several schema files share (not exported from the package index).
import { z } from 'zod';

/** A database id: a positive 32-bit integer (also from a path string). */
export const databaseId = z.coerce.number().int().positive().max(2_147_483_647);

/** A checkbox as JSON (true/false) or as a form field ("true"/"false", "on"/"off", "1"/"0"). */
export const formBoolean = z
  .union([z.boolean(), z.enum(['true', 'false', 'on', 'off', '1', '0'])], {
    error: 'Choose yes or no.',
  })
  .transform((value) => value === true || value === 'true' || value === 'on' || value === '1');
