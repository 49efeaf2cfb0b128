import type { ConversionReport } from '@margins/common/schemas/manuscript-report';

/** The formats an author may upload. */
export type SourceFormat = 'docx' | 'odt' | 'rtf' | 'txt' | 'html' | 'md';

/** An image extracted from a document; `id` is a content hash, so equal images share one id. */
export interface ConversionImage {
  id: string;
  contentType: string;
  data: Uint8Array;
}

/** One heading of the table of contents; `id` is the heading's block id in the HTML. */
export interface TocEntry {
  id: string;
  level: 1 | 2 | 3;
  text: string;
}

/** The normalised, allow-listed HTML of a manuscript and what was learnt while making it. */
export interface ConversionResult {
  html: string;
  toc: TocEntry[];
  words: number;
  title: string | null;
  images: ConversionImage[];
  /** What the author is told about the conversion: counts, and what could not be kept. */
  report: ConversionReport;
  /** Set when the format's own reader handed the document to a fallback (DOCX → mammoth): why. */
  fallback?: string;
}

export interface ConversionOptions {
  /** Public URL of a stored image; defaults to `/media/{id}`. */
  imageUrl?: (imageId: string) => string;
}
