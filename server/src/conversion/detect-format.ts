import { listCfbNames, looksLikeCfb } from './cfb.ts';
import { findDocxMainPart } from './docx-main-part.ts';
import { ACCEPTED_FORMATS_SENTENCE, ConversionError } from './errors.ts';
import { MAX_INPUT_BYTES } from './limits.ts';
import { looksLikeText } from './text-encoding.ts';
import type { SourceFormat } from './types.ts';
import { listZipEntries, looksLikeZip, readSmallZipEntry, type ZipEntry } from './zip.ts';

const EXTENSIONS: Record<string, SourceFormat> = {
  docx: 'docx',
  docm: 'docx',
  dotx: 'docx',
  odt: 'odt',
  ott: 'odt',
  rtf: 'rtf',
  txt: 'txt',
  text: 'txt',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  md: 'md',
  markdown: 'md',
  mdown: 'md',
  mkd: 'md',
  mkdn: 'md',
};

const LEGACY_WORD_EXTENSIONS = new Set(['doc', 'dot', 'wps']);
const ODT_MIME_TYPES = new Set([
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.text-template',
]);

// Binary files people upload by mistake, by their first bytes.
const BINARY_SIGNATURES: Array<{ bytes: number[]; what: string }> = [
  { bytes: [0x89, 0x50, 0x4e, 0x47], what: 'an image' },
  { bytes: [0xff, 0xd8, 0xff], what: 'an image' },
  { bytes: [0x47, 0x49, 0x46, 0x38], what: 'an image' },
  { bytes: [0x1f, 0x8b], what: 'a compressed archive' },
  { bytes: [0x37, 0x7a, 0xbc, 0xaf], what: 'a compressed archive' },
  { bytes: [0x52, 0x61, 0x72, 0x21], what: 'a compressed archive' },
  { bytes: [0x4d, 0x5a], what: 'a program' },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], what: 'a program' },
];

/** Decides the format of an upload from its content and its name; throws a ConversionError when we cannot convert it. */
export function detectFormat(fileName: string, bytes: Uint8Array): SourceFormat {
  const name = baseName(fileName);
  const extension = extensionOf(name);
  if (bytes.length > MAX_INPUT_BYTES) {
    throw new ConversionError(
      'too_large',
      `“${name}” is larger than ${MAX_INPUT_BYTES / 1024 / 1024} MB. Remove large images or split the manuscript, and upload again.`,
    );
  }
  if (bytes.length === 0) {
    throw new ConversionError('empty', `“${name}” is empty. Check that you chose the right file.`);
  }

  if (looksLikePdf(bytes)) {
    throw new ConversionError(
      'unsupported_format',
      `“${name}” is a PDF, which we cannot convert. Export the manuscript from your word processor as DOCX instead. ${ACCEPTED_FORMATS_SENTENCE}`,
    );
  }
  if (looksLikeCfb(bytes)) return detectCfb(name, extension, bytes);
  if (looksLikeZip(bytes)) return detectZip(name, extension, bytes);
  if (looksLikeRtf(bytes)) return 'rtf';

  if (extension === 'docx' || extension === 'docm' || extension === 'dotx')
    throw notValid(name, 'DOCX', 'docx');
  if (extension === 'odt' || extension === 'ott') throw notValid(name, 'ODT', 'odt');
  if (extension === 'rtf') throw notValid(name, 'RTF', 'rtf');
  if (LEGACY_WORD_EXTENSIONS.has(extension)) throw legacyWord(name);

  const format = EXTENSIONS[extension];
  if (format === undefined) throw unsupported(name);
  const binary = BINARY_SIGNATURES.find((signature) =>
    signature.bytes.every((byte, i) => bytes[i] === byte),
  );
  if (binary !== undefined || !looksLikeText(bytes)) {
    const what = binary?.what ?? 'binary data';
    throw new ConversionError(
      'unsupported_format',
      `“${name}” holds ${what}, not readable text. Check that you chose the right file. ${ACCEPTED_FORMATS_SENTENCE}`,
    );
  }
  return format;
}

function detectCfb(name: string, extension: string, bytes: Uint8Array): SourceFormat {
  const streams = listCfbNames(bytes);
  if (streams.has('EncryptionInfo') || streams.has('EncryptedPackage')) {
    throw new ConversionError(
      'encrypted',
      `“${name}” is protected with a password. Remove the password and upload again.`,
    );
  }
  if (
    streams.has('WordDocument') ||
    LEGACY_WORD_EXTENSIONS.has(extension) ||
    extension === 'docx'
  ) {
    throw legacyWord(name);
  }
  throw unsupported(name);
}

function detectZip(name: string, extension: string, bytes: Uint8Array): SourceFormat {
  let entries: ZipEntry[];
  try {
    entries = listZipEntries(bytes);
  } catch (error) {
    if (extension === 'odt' || extension === 'ott') throw notValid(name, 'ODT', 'odt');
    if (EXTENSIONS[extension] === 'docx') throw notValid(name, 'DOCX', 'docx');
    throw error;
  }
  if (hasDocxMainPart(bytes, entries)) return 'docx';
  const mimeEntry = entries.find((entry) => entry.name === 'mimetype');
  const mimeType = mimeEntry ? readSmallZipEntry(bytes, mimeEntry)?.trim() : undefined;
  if (
    (mimeType !== undefined && ODT_MIME_TYPES.has(mimeType)) ||
    (mimeType === undefined && entries.some((entry) => entry.name === 'content.xml'))
  ) {
    assertOdtNotEncrypted(name, bytes, entries);
    return 'odt';
  }

  if (EXTENSIONS[extension] === 'docx') throw notValid(name, 'DOCX', 'docx');
  if (extension === 'odt' || extension === 'ott') throw notValid(name, 'ODT', 'odt');
  throw new ConversionError(
    'unsupported_format',
    `“${name}” is an archive or a document type we cannot convert. ${ACCEPTED_FORMATS_SENTENCE}`,
  );
}

/** Whether the package relationships lead to a word-processing main part (docx-main-part.ts). */
function hasDocxMainPart(bytes: Uint8Array, entries: ZipEntry[]): boolean {
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const readText = (name: string): string | null => {
    const entry = byName.get(name);
    return entry ? readSmallZipEntry(bytes, entry, 256 * 1024) : null;
  };
  return findDocxMainPart((name) => byName.has(name), readText) !== null;
}

/** A password-protected ODT lists encryption data for its parts in the manifest. */
function assertOdtNotEncrypted(name: string, bytes: Uint8Array, entries: ZipEntry[]): void {
  const manifest = entries.find((entry) => entry.name === 'META-INF/manifest.xml');
  const text = manifest ? readSmallZipEntry(bytes, manifest, 256 * 1024) : null;
  if (text?.includes('encryption-data')) {
    throw new ConversionError(
      'encrypted',
      `“${name}” is protected with a password. Remove the password and upload again.`,
    );
  }
}

function notValid(name: string, label: string, extension: string): ConversionError {
  return new ConversionError(
    'corrupt',
    `“${name}” is not a valid ${label} file (it may be damaged, or another kind of file renamed). Open it in your word processor, save it again as .${extension}, and upload that.`,
  );
}

function legacyWord(name: string): ConversionError {
  return new ConversionError(
    'legacy_doc',
    `“${name}” is an old Word (.doc) file. Open it in Word or LibreOffice, save it as .docx, and upload that.`,
  );
}

function unsupported(name: string): ConversionError {
  return new ConversionError(
    'unsupported_format',
    `We cannot convert “${name}”. ${ACCEPTED_FORMATS_SENTENCE}`,
  );
}

function looksLikePdf(bytes: Uint8Array): boolean {
  // The PDF header may follow some junk, but within the first 1 KB.
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024));
  return head.includes('%PDF-');
}

function looksLikeRtf(bytes: Uint8Array): boolean {
  let start = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
  while (start < bytes.length && start < 64 && isAsciiSpace(bytes[start] as number)) start += 1;
  const head = String.fromCharCode(...bytes.subarray(start, start + 5));
  return head === '{\\rtf';
}

function isAsciiSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

function baseName(fileName: string): string {
  const name = fileName.split(/[\\/]/).pop() ?? '';
  return name.trim() === '' ? 'the file' : name.trim();
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}
