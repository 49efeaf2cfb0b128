import { createHash } from 'node:crypto';
import type { NormalisedDocument } from './normalise/index.ts';
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

/** Collects the images of one document, each stored once under its content hash. */
export class ImageCollector {
  private readonly byUrl = new Map<string, ConversionImage>();

  constructor(private readonly imageUrl: (imageId: string) => string) {}

  /** Stores the image and returns its public URL, or null when it is not a safe raster image. */
  add(data: Uint8Array): string | null {
    const contentType = sniffImageType(data);
    if (contentType === null) return null;
    const id = createHash('sha256').update(data).digest('hex');
    const url = this.imageUrl(id);
    if (!this.byUrl.has(url)) this.byUrl.set(url, { id, contentType, data });
    return url;
  }

  /** The images whose URLs the final HTML shows. */
  listShown(shownUrls: ReadonlySet<string>): ConversionImage[] {
    return [...this.byUrl].filter(([url]) => shownUrls.has(url)).map(([, image]) => image);
  }
}

/** The public result: the normalised document and the images it shows. */
export function conversionResult(
  document: NormalisedDocument,
  images: ImageCollector | null,
): ConversionResult {
  return {
    html: document.html,
    toc: document.toc,
    words: document.words,
    title: document.title,
    images: images?.listShown(document.imageUrls) ?? [],
  };
}
