// Pictures in the markup: ours (extracted by the converter), embedded as `data:` URLs (HTML and
// Markdown uploads: stored like DOCX images), or not shown — then a visible placeholder with the
// alt text takes their place, and the conversion report says why.
import type { Element } from 'hast';
import { CONVERSION_NOTES } from '@margins/common/messages-conversion';
import { element } from './hast.ts';

/** Why a picture is not shown. */
export type PictureProblem = 'remote' | 'unsupported' | 'not_in_file';

/** How a picture of the markup is shown: a public URL, or a placeholder and its reason. */
type ResolvedPicture = { url: string } | { problem: PictureProblem };

const LABELS: Record<PictureProblem, string> = {
  remote: CONVERSION_NOTES.pictureRemote,
  unsupported: CONVERSION_NOTES.pictureUnsupported,
  not_in_file: CONVERSION_NOTES.pictureNotInFile,
};

/**
 * Resolves an image `src` of the markup. `known` holds what the converter extracted; `store`
 * (HTML and Markdown) keeps the picture of a `data:` URL and gives its URL, or null when its
 * bytes are not a safe raster image. Remote pictures are never fetched.
 */
export function resolvePicture(
  source: string,
  known: ReadonlyMap<string, string>,
  store: ((data: Uint8Array) => string | null) | undefined,
): ResolvedPicture {
  const url = known.get(source);
  if (url !== undefined) return { url };
  const trimmed = source.trim();
  // A DOCX, ODT or RTF picture the store refused (EMF, WMF, TIFF…) keeps an empty src.
  if (trimmed === '') return { problem: 'unsupported' };
  if (/^data:/i.test(trimmed)) {
    const data = store === undefined ? null : decodeDataUrl(trimmed);
    if (data === null || store === undefined) return { problem: 'unsupported' };
    const stored = store(data);
    return stored === null ? { problem: 'unsupported' } : { url: stored };
  }
  if (/^(?:https?:)?\/\//i.test(trimmed)) return { problem: 'remote' };
  return { problem: 'not_in_file' };
}

/** The bytes of a `data:` URL (base64 or percent-encoded), or null when it is malformed. */
function decodeDataUrl(url: string): Uint8Array | null {
  const comma = url.indexOf(',');
  if (comma === -1) return null;
  const header = url.slice(5, comma);
  const body = url.slice(comma + 1);
  if (/;\s*base64\s*$/i.test(header)) {
    const base64 = body.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(base64)) return null;
    return new Uint8Array(Buffer.from(base64, 'base64'));
  }
  try {
    return new Uint8Array(Buffer.from(decodeURIComponent(body), 'latin1'));
  } catch {
    return null;
  }
}

/** The visible mark where a picture stood: its reason and alt text, shown by the reader's CSS. */
export function picturePlaceholder(problem: PictureProblem, alt: string | undefined): Element {
  const cleanAlt = alt?.replace(/\s+/g, ' ').trim().slice(0, 300);
  const label = cleanAlt ? `${LABELS[problem]}: ${cleanAlt}` : LABELS[problem];
  return element('span', { className: ['missing-picture'], role: 'img', ariaLabel: label });
}
