/** The longest file name we keep (most file systems allow 255 bytes; we count characters). */
const MAX_FILE_NAME = 255;

/** C0 and C1 control characters, DEL, and the Unicode line and paragraph separators. */
// eslint-disable-next-line no-control-regex -- control characters are what is being removed
const CONTROL = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/g;
/** A UTF-16 surrogate without its pair. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * An uploaded file's name as we may store and show it: the last path segment, without control
 * characters or broken surrogates, spaces collapsed, at most 255 characters; `fallback` when
 * nothing is left. The raw name of a multipart part is the sender's and can hold anything.
 */
export function cleanFileName(raw: string, fallback = 'upload'): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  const clean = base
    .replace(LONE_SURROGATE, '')
    .replace(CONTROL, ' ')
    .normalize('NFC')
    .replace(/\s+/g, ' ')
    .trim();
  return [...clean].slice(0, MAX_FILE_NAME).join('') || fallback;
}

/**
 * A Content-Disposition header naming a download (RFC 6266): an ASCII `filename` for old
 * clients (anything else becomes `_`) and the exact name as UTF-8 in `filename*` (RFC 8187).
 */
export function contentDisposition(type: 'attachment' | 'inline', fileName: string): string {
  const name = cleanFileName(fileName, 'download');
  const ascii = name.replace(/[^\x20-\x7E]|["\\%;]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
