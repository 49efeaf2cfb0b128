import { describe, expect, it } from 'vitest';
import { ConversionError, convertDocument, type SourceFormat } from './index.ts';
import {
  buildCfb,
  buildDocx,
  buildZip,
  docxParagraph,
  readFixture,
  unzip,
  utf8,
} from './test-factories.ts';
import { listZipEntries } from './zip.ts';

async function conversionError(bytes: Uint8Array, format: SourceFormat): Promise<ConversionError> {
  try {
    await convertDocument(bytes, format);
  } catch (error) {
    if (error instanceof ConversionError) return error;
    throw error;
  }
  throw new Error('the conversion succeeded');
}

/** Rewrites the uncompressed size an entry declares, in its local header and the central directory. */
function declareUncompressedSize(zip: Uint8Array, entryName: string, size: number): Uint8Array {
  const patched = zip.slice();
  const view = new DataView(patched.buffer);
  const entry = listZipEntries(patched).find((candidate) => candidate.name === entryName);
  if (!entry) throw new Error(`no entry ${entryName}`);
  view.setUint32(entry.localHeaderOffset + 22, size, true);
  for (let offset = 0; offset + 4 <= patched.length; offset += 1) {
    if (view.getUint32(offset, true) !== 0x02014b50) continue;
    const nameLength = view.getUint16(offset + 28, true);
    const name = new TextDecoder().decode(patched.subarray(offset + 46, offset + 46 + nameLength));
    if (name === entryName) view.setUint32(offset + 24, size, true);
  }
  return patched;
}

function docxWithLargeEntry(bytes: number): Uint8Array {
  const entries = unzip(buildDocx(docxParagraph('A short manuscript.')));
  entries['word/media/padding.bin'] = new Uint8Array(bytes); // zeros compress ~1000:1
  return buildZip(entries);
}

describe('archive safety', () => {
  it('refuses a zip bomb that admits its size (compression ratio)', async () => {
    const error = await conversionError(docxWithLargeEntry(20 * 1024 * 1024), 'docx');
    expect(error.code).toBe('too_large');
  });

  it('refuses a zip bomb whose headers lie about the size', async () => {
    const bomb = declareUncompressedSize(
      docxWithLargeEntry(20 * 1024 * 1024),
      'word/media/padding.bin',
      1000,
    );
    const error = await conversionError(bomb, 'docx');
    expect(error.code).toBe('too_large');
  });

  it('refuses an archive with too many entries', async () => {
    const entries = unzip(buildDocx(docxParagraph('Hello.')));
    for (let i = 0; i < 5001; i += 1) entries[`junk/${i}.xml`] = new Uint8Array(0);
    const error = await conversionError(buildZip(entries), 'docx');
    expect(error.code).toBe('too_large');
  });

  it('refuses XML parts that declare a DTD (external entities, billion laughs)', async () => {
    const entries = unzip(buildDocx(docxParagraph('Hello.')));
    entries['word/document.xml'] = utf8(
      '<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>' +
        '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>&xxe;</w:t></w:r></w:p></w:body></w:document>',
    );
    const error = await conversionError(buildZip(entries), 'docx');
    expect(error.code).toBe('corrupt');
  });

  it('refuses the same tricks inside an ODT', async () => {
    const entries = unzip(readFixture('odt'));
    entries['Pictures/padding.bin'] = new Uint8Array(20 * 1024 * 1024);
    expect((await conversionError(buildZip(entries), 'odt')).code).toBe('too_large');
  });

  it('gives precise errors when the bytes do not match the format asked for', async () => {
    expect((await conversionError(utf8('not a zip'), 'docx')).code).toBe('corrupt');
    expect(
      (await conversionError(buildCfb(['EncryptionInfo', 'EncryptedPackage']), 'docx')).code,
    ).toBe('encrypted');
    expect((await conversionError(buildCfb(['WordDocument']), 'docx')).code).toBe('legacy_doc');
    expect((await conversionError(readFixture('docx'), 'odt')).code).toBe('corrupt');
    expect((await conversionError(utf8('plain text'), 'rtf')).code).toBe('corrupt');
    expect((await conversionError(readFixture('docx'), 'txt')).code).toBe('unsupported_format');
  });

  it('refuses a document without any text', async () => {
    expect((await conversionError(utf8('   \n\n  '), 'txt')).code).toBe('empty');
    expect((await conversionError(buildDocx(''), 'docx')).code).toBe('empty');
  });
});
