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

/** 200 of GET /manuscript/:manuscript_id/report: the report of the current draft (author only). */
export const manuscriptReportResponse = z.object({
  /** Null for a draft converted before reports were kept, or while the first upload is inking. */
  report: conversionReport.nullable(),
  /** The uploaded file's name, and its format. */
  file_name: z.string().nullable(),
  source_format: z.string().nullable(),
  /** ISO-8601 time the draft was converted. */
  converted: z.string().nullable(),
});
export type ManuscriptReportResponse = z.infer<typeof manuscriptReportResponse>;
