import { Inflate } from 'fflate';
import { ConversionError } from './errors.ts';
import {
  MAX_ARCHIVE_ENTRIES,
  MAX_COMPRESSION_RATIO,
  MAX_UNPACKED_BYTES,
  RATIO_CHECK_MIN_BYTES,
} from './limits.ts';

/** One file inside a ZIP archive, as its central directory describes it. */
export interface ZipEntry {
  name: string;
  method: number;
  encrypted: boolean;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const ZIP64_END_LOCATOR = 0x07064b50;
const ZIP64_END_OF_CENTRAL_DIRECTORY = 0x06064b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
const METHOD_STORED = 0;
const METHOD_DEFLATE = 8;
const CHUNK_BYTES = 64 * 1024;

const textDecoder = new TextDecoder('utf-8');

/** Whether the bytes start like a ZIP archive (a local file header or an empty archive). */
export function looksLikeZip(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 &&
    bytes[0] === 0x50 &&
    bytes[1] === 0x4b &&
    ((bytes[2] === 0x03 && bytes[3] === 0x04) || (bytes[2] === 0x05 && bytes[3] === 0x06))
  );
}

function corrupt(what: string): ConversionError {
  return new ConversionError(
    'corrupt',
    `The file is damaged (${what}). Open it in your word processor, save it again, and upload the new file.`,
  );
}

function tooLarge(): ConversionError {
  return new ConversionError(
    'too_large',
    'The document unpacks to far more data than a manuscript holds, so we did not open it. Save it again from your word processor (removing very large images) and upload the new file.',
  );
}

/** Reads the central directory without decompressing anything. Throws `corrupt` if there is none. */
export function listZipEntries(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const endOffset = findEndOfCentralDirectory(view);
  if (endOffset < 0) throw corrupt('no ZIP directory found');

  let entryCount = view.getUint16(endOffset + 10, true);
  let directoryOffset = view.getUint32(endOffset + 16, true);
  if (entryCount === 0xffff || directoryOffset === 0xffffffff) {
    const zip64 = readZip64End(view, endOffset);
    entryCount = zip64.entryCount;
    directoryOffset = zip64.directoryOffset;
  }
  if (entryCount > MAX_ARCHIVE_ENTRIES) throw tooLarge();

  const entries: ZipEntry[] = [];
  let offset = directoryOffset;
  for (let i = 0; i < entryCount; i += 1) {
    if (offset + 46 > view.byteLength || view.getUint32(offset, true) !== CENTRAL_DIRECTORY_ENTRY) {
      throw corrupt('broken ZIP directory');
    }
    const flags = view.getUint16(offset + 8, true);
    const method = view.getUint16(offset + 10, true);
    let compressedSize = view.getUint32(offset + 20, true);
    let uncompressedSize = view.getUint32(offset + 24, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    let localHeaderOffset = view.getUint32(offset + 42, true);
    const nameStart = offset + 46;
    if (nameStart + nameLength + extraLength > view.byteLength)
      throw corrupt('broken ZIP directory');
    const name = textDecoder.decode(bytes.subarray(nameStart, nameStart + nameLength));

    // ZIP64: sizes that do not fit 32 bits live in extra field 0x0001, in this order.
    if (
      uncompressedSize === 0xffffffff ||
      compressedSize === 0xffffffff ||
      localHeaderOffset === 0xffffffff
    ) {
      const extra = findExtraField(view, nameStart + nameLength, extraLength, 0x0001);
      if (extra === null) throw corrupt('broken ZIP64 entry');
      let cursor = extra.start;
      const next = (): number => {
        if (cursor + 8 > extra.end) throw corrupt('broken ZIP64 entry');
        const value = Number(view.getBigUint64(cursor, true));
        cursor += 8;
        return value;
      };
      if (uncompressedSize === 0xffffffff) uncompressedSize = next();
      if (compressedSize === 0xffffffff) compressedSize = next();
      if (localHeaderOffset === 0xffffffff) localHeaderOffset = next();
    }

    entries.push({
      name,
      method,
      encrypted: (flags & 1) === 1,
      compressedSize,
      uncompressedSize,
      localHeaderOffset,
    });
    offset = nameStart + nameLength + extraLength + commentLength;
  }
  return entries;
}

function findEndOfCentralDirectory(view: DataView): number {
  // The record is 22 bytes plus a comment of at most 65535 bytes, at the very end.
  const lowest = Math.max(0, view.byteLength - 22 - 0xffff);
  for (let offset = view.byteLength - 22; offset >= lowest; offset -= 1) {
    if (view.getUint32(offset, true) === END_OF_CENTRAL_DIRECTORY) return offset;
  }
  return -1;
}

function readZip64End(
  view: DataView,
  endOffset: number,
): { entryCount: number; directoryOffset: number } {
  const locator = endOffset - 20;
  if (locator < 0 || view.getUint32(locator, true) !== ZIP64_END_LOCATOR) {
    throw corrupt('broken ZIP64 directory');
  }
  const recordOffset = Number(view.getBigUint64(locator + 8, true));
  if (
    recordOffset + 56 > view.byteLength ||
    view.getUint32(recordOffset, true) !== ZIP64_END_OF_CENTRAL_DIRECTORY
  ) {
    throw corrupt('broken ZIP64 directory');
  }
  return {
    entryCount: Number(view.getBigUint64(recordOffset + 32, true)),
    directoryOffset: Number(view.getBigUint64(recordOffset + 48, true)),
  };
}

function findExtraField(
  view: DataView,
  start: number,
  length: number,
  id: number,
): { start: number; end: number } | null {
  let offset = start;
  const end = start + length;
  while (offset + 4 <= end) {
    const fieldId = view.getUint16(offset, true);
    const fieldLength = view.getUint16(offset + 2, true);
    if (fieldId === id) return { start: offset + 4, end: Math.min(end, offset + 4 + fieldLength) };
    offset += 4 + fieldLength;
  }
  return null;
}

// Office and OpenDocument packages never carry a DTD. Refusing any keeps entity tricks (external
// entities, "billion laughs") away from every XML parser downstream, whatever its defaults. A DTD
// starts "<!DOCTYPE" or "<!ENTITY"; in UTF-16 any "<!" is refused (packages are UTF-8).
const EXCLAMATION = 0x21;
const LESS_THAN = 0x3c;

class DtdScanner {
  private previous = new Uint8Array(0);
  found = false;

  push(chunk: Uint8Array): void {
    if (this.found) return;
    // Check the seam between chunks on a small joined copy, then the chunk itself.
    const seam = new Uint8Array(this.previous.length + Math.min(chunk.length, 16));
    seam.set(this.previous);
    seam.set(chunk.subarray(0, seam.length - this.previous.length), this.previous.length);
    this.found = hasDeclaration(seam) || hasDeclaration(chunk);
    this.previous = chunk.slice(Math.max(0, chunk.length - 16));
  }
}

function hasDeclaration(bytes: Uint8Array): boolean {
  // "!" is rare in markup, so search for it and look around.
  for (let i = bytes.indexOf(EXCLAMATION); i !== -1; i = bytes.indexOf(EXCLAMATION, i + 1)) {
    if (i >= 1 && bytes[i - 1] === LESS_THAN) {
      const next = bytes[i + 1];
      if (next === 0x44 /* D */ || next === 0x45 /* E */) return true;
    }
    // UTF-16, either byte order: "<", NUL, "!".
    if (i >= 2 && bytes[i - 1] === 0 && bytes[i - 2] === LESS_THAN) return true;
  }
  return false;
}

function isMarkupEntry(name: string): boolean {
  return /\.(xml|rels)$/i.test(name);
}

/** A ZIP archive whose every entry has been inflated once, counted and checked. */
export class CheckedZip {
  private readonly byName: Map<string, ZipEntry>;

  constructor(
    private readonly bytes: Uint8Array,
    readonly entries: ZipEntry[],
  ) {
    this.byName = new Map(entries.map((entry) => [entry.name, entry]));
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** The uncompressed bytes of one entry, or null when the archive has no such entry. */
  read(name: string): Uint8Array | null {
    const entry = this.byName.get(name);
    if (entry === undefined) return null;
    const parts: Uint8Array[] = [];
    inflateEntry(this.bytes, entry, (chunk) => parts.push(chunk));
    return concatBytes(parts);
  }

  readText(name: string): string | null {
    const data = this.read(name);
    return data === null ? null : textDecoder.decode(data);
  }
}

/**
 * Checks a DOCX/ODT archive before any library unpacks it: entry count, declared and actual
 * uncompressed sizes (entries are really inflated and counted, since headers can lie), the
 * compression ratio, encryption and DTDs in XML parts. Throws `too_large`, `encrypted` or `corrupt`.
 */
export function checkZip(bytes: Uint8Array): CheckedZip {
  const entries = listZipEntries(bytes);
  let declaredTotal = 0;
  for (const entry of entries) {
    if (entry.encrypted) {
      throw new ConversionError(
        'encrypted',
        'The document is protected with a password. Remove the password and upload again.',
      );
    }
    if (entry.method !== METHOD_STORED && entry.method !== METHOD_DEFLATE) {
      throw corrupt(`unsupported compression in "${entry.name}"`);
    }
    declaredTotal += entry.uncompressedSize;
    if (isBomb(entry.compressedSize, entry.uncompressedSize)) throw tooLarge();
  }
  if (declaredTotal > MAX_UNPACKED_BYTES) throw tooLarge();

  let actualTotal = 0;
  for (const entry of entries) {
    let entryTotal = 0;
    const scanner = isMarkupEntry(entry.name) ? new DtdScanner() : null;
    inflateEntry(bytes, entry, (chunk) => {
      entryTotal += chunk.length;
      actualTotal += chunk.length;
      if (entryTotal > entry.uncompressedSize || actualTotal > MAX_UNPACKED_BYTES) throw tooLarge();
      scanner?.push(chunk);
    });
    if (entryTotal !== entry.uncompressedSize) throw corrupt(`"${entry.name}" is truncated`);
    if (scanner?.found) throw corrupt(`"${entry.name}" declares a DTD, which documents never need`);
  }
  return new CheckedZip(bytes, entries);
}

function isBomb(compressedSize: number, uncompressedSize: number): boolean {
  return (
    uncompressedSize > RATIO_CHECK_MIN_BYTES &&
    uncompressedSize > Math.max(compressedSize, 1) * MAX_COMPRESSION_RATIO
  );
}

function inflateEntry(bytes: Uint8Array, entry: ZipEntry, onChunk: (chunk: Uint8Array) => void) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header = entry.localHeaderOffset;
  if (header + 30 > bytes.length || view.getUint32(header, true) !== LOCAL_FILE_HEADER) {
    throw corrupt(`missing header for "${entry.name}"`);
  }
  const dataStart =
    header + 30 + view.getUint16(header + 26, true) + view.getUint16(header + 28, true);
  const dataEnd = dataStart + entry.compressedSize;
  if (dataEnd > bytes.length) throw corrupt(`"${entry.name}" is cut off`);
  const data = bytes.subarray(dataStart, dataEnd);

  if (entry.method === METHOD_STORED) {
    if (data.length > 0) onChunk(data);
    return;
  }
  const inflater = new Inflate((chunk) => onChunk(chunk));
  try {
    if (data.length === 0) inflater.push(new Uint8Array(0), true);
    for (let offset = 0; offset < data.length; offset += CHUNK_BYTES) {
      const end = Math.min(offset + CHUNK_BYTES, data.length);
      inflater.push(data.subarray(offset, end), end === data.length);
    }
  } catch (error) {
    if (error instanceof ConversionError) throw error;
    throw corrupt(`"${entry.name}" cannot be decompressed`);
  }
}

function concatBytes(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

/** Reads a tiny entry (such as ODF's `mimetype`) without checking the whole archive; null if it is not tiny. */
export function readSmallZipEntry(
  bytes: Uint8Array,
  entry: ZipEntry,
  maxBytes = 1024,
): string | null {
  if (entry.uncompressedSize > maxBytes || entry.compressedSize > maxBytes) return null;
  try {
    const parts: Uint8Array[] = [];
    inflateEntry(bytes, entry, (chunk) => parts.push(chunk));
    return textDecoder.decode(concatBytes(parts));
  } catch {
    return null;
  }
}
