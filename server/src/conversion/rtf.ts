import { ConversionError } from './errors.ts';
import { conversionResult, ImageCollector } from './images.ts';
import { normaliseHtml } from './normalise/index.ts';
import { buildHast } from './rtf-hast.ts';
import { readRtf } from './rtf-reader.ts';
import type { ConversionResult } from './types.ts';

/**
 * RTF (from Word, LibreOffice, WordPad…) → normalised HTML with our own reader: tokenizer
 * (rtf-tokenizer.ts) → document model (rtf-reader.ts) → hast (rtf-hast.ts) → normaliser.
 */
export async function convertRtf(
  bytes: Uint8Array,
  imageUrl: (imageId: string) => string,
): Promise<ConversionResult> {
  const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  if (!/^\s*(?:\ufeff|ï»¿)?\s*\{\\rtf/.test(source.slice(0, 64))) {
    throw new ConversionError(
      'corrupt',
      'The file is not a valid RTF document. Open it in your word processor, save it again as .rtf, and upload that.',
    );
  }
  const images = new ImageCollector(imageUrl);
  const document = readRtf(source, images);
  const allowedImages = new Map([...document.imageUrls].map((url) => [url, url]));
  return conversionResult(
    normaliseHtml(buildHast(document), { images: allowedImages, trustedMarkup: true }),
    images,
  );
}
