import { createHash } from 'node:crypto';
import type { NormalisedDocument } from './normalise/index.ts';
import { buildReport } from './report.ts';
import type { ConversionImage, ConversionResult } from './types.ts';

/** Default public URL of a stored image. */
export function defaultImageUrl(imageId: string): string {
  return `/media/${imageId}`;
}

/**
 * The type of a raster image browsers show safely, judged by its first bytes, never by the name
 * or the type a document claims. SVG (can carry script), EMF/WMF and TIFF give null.
 */
export function sniffImageType(bytes: Uint8Array): string | null {
  const startsWith = (...signature: number[]) => signature.every((byte, i) => bytes[i] === byte);
  if (startsWith(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (startsWith(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (startsWith(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (startsWith(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45) {
    return 'image/webp';
  }
  if (startsWith(0x42, 0x4d) && bytes.length > 26) return 'image/bmp';
  return null;
}

/**
 * The format of a picture browsers do not show, for the author's report (EMF, WMF, TIFF, SVG).
 * No maintained npm library converts EMF or WMF without a browser or canvas (rtf.js draws them
 * into a DOM, SheetJS's wmf onto a canvas), so they are marked, not converted.
 */
function unshownImageFormat(bytes: Uint8Array): string {
  const startsWith = (...signature: number[]) => signature.every((byte, i) => bytes[i] === byte);
  if (startsWith(0x01, 0x00, 0x00, 0x00) && bytes[40] === 0x20 && bytes[41] === 0x45) return 'EMF';
  if (startsWith(0xd7, 0xcd, 0xc6, 0x9a) || startsWith(0x01, 0x00, 0x09, 0x00)) return 'WMF';
  if (startsWith(0x02, 0x00, 0x09, 0x00)) return 'WMF';
  if (startsWith(0x49, 0x49, 0x2a, 0x00) || startsWith(0x4d, 0x4d, 0x00, 0x2a)) return 'TIFF';
  const head = Buffer.from(bytes.subarray(0, 512)).toString('latin1');
  if (/<svg[\s>]/i.test(head)) return 'SVG';
  return 'an unknown';
}

/** Collects the images of one document, each stored once under its content hash. */
export class ImageCollector {
  private readonly byUrl = new Map<string, ConversionImage>();
  /** Pictures the store refused, by format (see unshownImageFormat). */
  readonly refused = new Map<string, number>();

  constructor(private readonly imageUrl: (imageId: string) => string) {}

  /** Stores the image and returns its public URL, or null when it is not a safe raster image. */
  add(data: Uint8Array): string | null {
    const contentType = sniffImageType(data);
    if (contentType === null) {
      const format = unshownImageFormat(data);
      this.refused.set(format, (this.refused.get(format) ?? 0) + 1);
      return null;
    }
    const id = createHash('sha256').update(data).digest('hex');
    const url = this.imageUrl(id);
    if (!this.byUrl.has(url)) this.byUrl.set(url, { id, contentType, data });
    return url;
  }

  /** Counts a picture whose data was not even read, by its format ("EMF", "WMF"…). */
  refuse(format: string): void {
    this.refused.set(format, (this.refused.get(format) ?? 0) + 1);
  }

  /** The images whose URLs the final HTML shows. */
  listShown(shownUrls: ReadonlySet<string>): ConversionImage[] {
    return [...this.byUrl].filter(([url]) => shownUrls.has(url)).map(([, image]) => image);
  }
}

/** The public result: the normalised document, the images it shows, and the author's report. */
export function conversionResult(
  document: NormalisedDocument,
  images: ImageCollector | null,
): ConversionResult {
  const shown = images?.listShown(document.imageUrls) ?? [];
  return {
    html: document.html,
    toc: document.toc,
    words: document.words,
    title: document.title,
    images: shown,
    report: buildReport(document, images?.refused ?? new Map()),
  };
}
