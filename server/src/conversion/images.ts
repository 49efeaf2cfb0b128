import { createHash } from 'node:crypto';
import type { ConversionImage } from './types.ts';

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
  private readonly byId = new Map<string, ConversionImage>();

  constructor(private readonly imageUrl: (imageId: string) => string) {}

  /** Stores the image and returns its public URL, or null when it is not a safe raster image. */
  add(data: Uint8Array): string | null {
    const contentType = sniffImageType(data);
    if (contentType === null) return null;
    const id = createHash('sha256').update(data).digest('hex');
    if (!this.byId.has(id)) this.byId.set(id, { id, contentType, data });
    return this.imageUrl(id);
  }

  list(): ConversionImage[] {
    return [...this.byId.values()];
  }
}
