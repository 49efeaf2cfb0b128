// The document conversion pipeline: every upload format → one normalised, allow-listed HTML
// shape with stable block ids. Pure library code: the manuscripts job calls it in a worker thread.
import { ConversionError } from './errors.ts';
import { conversionResult, defaultImageUrl, ImageCollector } from './images.ts';
import { MAX_INPUT_BYTES } from './limits.ts';
import { looksLikeText } from './text-encoding.ts';
import type { ConversionOptions, ConversionResult, SourceFormat } from './types.ts';

export { ConversionError, type ConversionErrorCode } from './errors.ts';
export { detectFormat } from './detect-format.ts';
export type { ConversionResult, SourceFormat } from './types.ts';

/** Converts a document of a known format (see detectFormat) to normalised HTML, TOC, word count, title and images. */
export async function convertDocument(
  bytes: Uint8Array,
  format: SourceFormat,
  options: ConversionOptions = {},
): Promise<ConversionResult> {
  if (bytes.length > MAX_INPUT_BYTES) {
    throw new ConversionError(
      'too_large',
      `The file is larger than ${MAX_INPUT_BYTES / 1024 / 1024} MB. Remove large images or split the manuscript, and upload again.`,
    );
  }
  if (bytes.length === 0) {
    throw new ConversionError('empty', 'The file is empty. Check that you chose the right file.');
  }
  if ((format === 'txt' || format === 'md' || format === 'html') && !looksLikeText(bytes)) {
    throw new ConversionError(
      'unsupported_format',
      'The file does not contain readable text. Check that you chose the right file. Accepted formats are DOCX, RTF, ODT, text, HTML and Markdown.',
    );
  }
  const imageUrl = options.imageUrl ?? defaultImageUrl;
  const result = await convertByFormat(bytes, format, imageUrl);
  if (result.words === 0 && result.images.length === 0 && result.report.formulas === 0) {
    throw new ConversionError(
      'empty',
      'We found no text in the document. Check that you chose the right file, and that its text is not only in images.',
    );
  }
  return result;
}

// Each converter is loaded on first use: a worker that only ever sees DOCX never loads the others.
async function convertByFormat(
  bytes: Uint8Array,
  format: SourceFormat,
  imageUrl: (imageId: string) => string,
): Promise<ConversionResult> {
  switch (format) {
    case 'docx': {
      const { convertDocx } = await import('./docx.ts');
      return convertDocx(bytes, imageUrl);
    }
    case 'odt': {
      const { convertOdt } = await import('./odt.ts');
      return convertOdt(bytes, imageUrl);
    }
    case 'rtf': {
      const { convertRtf } = await import('./rtf.ts');
      return convertRtf(bytes, imageUrl);
    }
    case 'md': {
      const { convertMarkdown } = await import('./markdown.ts');
      const images = new ImageCollector(imageUrl);
      return conversionResult(
        convertMarkdown(bytes, (data) => images.add(data)),
        images,
      );
    }
    case 'txt': {
      const { convertText } = await import('./text.ts');
      return conversionResult(convertText(bytes), null);
    }
    case 'html': {
      const { convertHtml } = await import('./html.ts');
      const images = new ImageCollector(imageUrl);
      return conversionResult(
        convertHtml(bytes, (data) => images.add(data)),
        images,
      );
    }
    default:
      throw new ConversionError(
        'unsupported_format',
        'This kind of file cannot be converted. Accepted formats are DOCX, RTF, ODT, text, HTML and Markdown.',
      );
  }
}
