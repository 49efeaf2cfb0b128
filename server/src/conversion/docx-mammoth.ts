// The DOCX path through mammoth: what our own reader (docx-reader.ts) falls back to for documents
// it does not understand, and the oracle its tests compare it with.
import { ConversionError } from './errors.ts';
import { conversionResult, ImageCollector } from './images.ts';
import { normaliseHtml } from './normalise/index.ts';
import type { ConversionResult } from './types.ts';
import type { CheckedZip } from './zip.ts';

// Mammoth ignores what a character style looks like. LibreOffice (and many Word templates) mark
// italics and bold with the "Emphasis" / "Strong" styles instead of direct formatting, so without
// these lines their italics and bold would vanish. docx-style-map.ts reads documents the same way.
const STYLE_MAP = [
  "r[style-name='Emphasis'] => em",
  "r[style-name='Subtle Emphasis'] => em",
  "r[style-name='Intense Emphasis'] => strong > em",
  "r[style-name='Strong'] => strong",
  "r[style-name='Strong Emphasis'] => strong",
  "r[style-name='Book Title'] => em",
  "p[style-name='Title'] => h1.title:fresh",
  // By style id too, for documents whose styles part lacks the names.
  'r.Emphasis => em',
  'r.Strong => strong',
  'p.Title => h1.title:fresh',
  "p[style-name='Subtitle'] => p:fresh",
  "p[style-name='Quote'] => blockquote > p:fresh",
  "p[style-name='Quotations'] => blockquote > p:fresh",
  "p[style-name='Intense Quote'] => blockquote > p:fresh",
  "p[style-name='Block Text'] => blockquote > p:fresh",
];

/**
 * The lines of STYLE_MAP that can match this document: mammoth tries every line on every
 * paragraph and run, so lines for styles the document does not define only cost time (~10% of a
 * book's conversion for the full map).
 */
export function styleMapFor(stylesXml: string | null): string[] {
  if (stylesXml === null) return STYLE_MAP;
  const defined = new Set<string>();
  for (const match of stylesXml.matchAll(/w:styleId="([^"]*)"|<w:name w:val="([^"]*)"/g)) {
    defined.add(match[1] !== undefined ? `id:${match[1]}` : `name:${match[2]!.toLowerCase()}`);
  }
  return STYLE_MAP.filter((line) => {
    const byName = /\[style-name='([^']*)'\]/.exec(line);
    if (byName) return defined.has(`name:${byName[1]!.toLowerCase()}`);
    const byId = /^[pr]\.(\S+)/.exec(line);
    return byId ? defined.has(`id:${byId[1]}`) : true;
  });
}

/** mammoth's HTML for a checked DOCX package, and the image sources the normaliser may keep. */
export async function mammothHtml(
  bytes: Uint8Array,
  archive: CheckedZip,
  images: ImageCollector,
): Promise<{ html: string; sources: Map<string, string> }> {
  const styleMap = styleMapFor(archive.readText('word/styles.xml'));
  const sources = new Map<string, string>();
  // Loaded on first use (also in the bundle, where a static import would load it at start).
  const { default: mammoth } = await import('mammoth');
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      {
        styleMap,
        externalFileAccess: false,
        convertImage: mammoth.images.imgElement(async (image) => {
          const url = images.add(new Uint8Array(await image.readAsArrayBuffer()));
          if (url === null) return { src: '' };
          sources.set(url, url);
          return { src: url };
        }),
      },
    );
    return { html: result.value, sources };
  } catch (error) {
    throw new ConversionError(
      'corrupt',
      'The DOCX file could not be read (it may be damaged). Open it in your word processor, save it again as .docx, and upload that.',
      { cause: error },
    );
  }
}

/** DOCX → normalised HTML with mammoth; images are stored by content hash and linked by URL. */
export async function convertWithMammoth(
  bytes: Uint8Array,
  archive: CheckedZip,
  imageUrl: (imageId: string) => string,
  propertyTitle: string | null = null,
): Promise<ConversionResult> {
  const images = new ImageCollector(imageUrl);
  const { html, sources } = await mammothHtml(bytes, archive, images);
  return conversionResult(
    normaliseHtml(html, { images: sources, trustedMarkup: true, propertyTitle }),
    images,
  );
}
