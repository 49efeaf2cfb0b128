import { readDocxPropertyTitle } from './document-properties.ts';
import { UnsupportedDocx } from './docx-package.ts';
import { readDocx } from './docx-reader.ts';
import { ConversionError } from './errors.ts';
import { conversionResult, ImageCollector } from './images.ts';
import { normaliseHtml } from './normalise/index.ts';
import { openPackage } from './package-guard.ts';
import type { ConversionResult } from './types.ts';

/** Which reader converted a DOCX: ours, or mammoth for a document ours does not understand. */
export type DocxConversion =
  | { reader: 'own'; result: ConversionResult }
  | { reader: 'mammoth'; reason: string; result: ConversionResult };

/**
 * DOCX → normalised HTML with our own reader (docx-reader.ts), which builds the tree mammoth's
 * HTML would parse to, without mammoth's cost; documents it does not understand go to mammoth.
 */
export async function convertDocx(
  bytes: Uint8Array,
  imageUrl: (imageId: string) => string,
): Promise<ConversionResult> {
  return (await convertDocxWithReport(bytes, imageUrl)).result;
}

/** convertDocx, saying which reader did the work (for tests; nothing is logged). */
export async function convertDocxWithReport(
  bytes: Uint8Array,
  imageUrl: (imageId: string) => string,
): Promise<DocxConversion> {
  const archive = openPackage(bytes, 'docx');
  const propertyTitle = readDocxPropertyTitle(archive);
  const images = new ImageCollector(imageUrl);
  let reading;
  try {
    reading = readDocx(archive, images);
  } catch (error) {
    if (error instanceof ConversionError) throw error;
    // What the reader does not understand, and (should it ever fail) anything it trips over.
    const reason =
      error instanceof UnsupportedDocx ? error.message : `reader failed: ${String(error)}`;
    // Loaded when needed: a conversion thread that never falls back never loads mammoth.
    const { convertWithMammoth } = await import('./docx-mammoth.ts');
    const result = await convertWithMammoth(bytes, archive, imageUrl, propertyTitle);
    return { reader: 'mammoth', reason, result: { ...result, fallback: `mammoth: ${reason}` } };
  }
  const document = normaliseHtml(reading.root, {
    images: reading.sources,
    trustedMarkup: true,
    propertyTitle,
  });
  return { reader: 'own', result: conversionResult(document, images) };
}
