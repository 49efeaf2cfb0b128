import { z } from 'zod';

/**
 * What one upload became (issue 10 item 8): counts of what was kept and sentences about what was
 * not. Stored with the version; shown after the upload and in the manuscript's edit view.
 */
export const conversionReport = z.object({
  /** Words of the converted text (what counts towards the word limit). */
  words: z.number().int().nonnegative(),
  /** Chapters: the headings of the level the document divides itself by. */
  chapters: z.number().int().nonnegative(),
  /** Pictures shown in the reader. */
  images: z.number().int().nonnegative(),
  footnotes: z.number().int().nonnegative(),
  tables: z.number().int().nonnegative(),
  /** Formulas (kept as MathML). */
  formulas: z.number().int().nonnegative(),
  /** One sentence per kind of thing that could not be kept, and why. Empty when nothing was lost. */
  notes: z.array(z.string()),
});
export type ConversionReport = z.infer<typeof conversionReport>;
