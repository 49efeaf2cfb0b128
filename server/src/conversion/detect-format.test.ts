import { describe, expect, it } from 'vitest';
import { ConversionError, detectFormat, type SourceFormat } from './index.ts';
import { MAX_INPUT_BYTES } from './limits.ts';
import { buildCfb, buildZip, encodeText, readFixture, utf8 } from './test-factories.ts';

function detectionError(fileName: string, bytes: Uint8Array): ConversionError {
  try {
    detectFormat(fileName, bytes);
  } catch (error) {
    if (error instanceof ConversionError) return error;
    throw error;
  }
  throw new Error(`detectFormat accepted ${fileName}`);
}

describe('detectFormat', () => {
  it.each<[string, SourceFormat]>([
    ['docx', 'docx'],
    ['odt', 'odt'],
    ['rtf', 'rtf'],
    ['txt', 'txt'],
    ['html', 'html'],
    ['md', 'md'],
  ])('recognises the %s fixture', (extension, format) => {
    expect(detectFormat(`My Novel.${extension}`, readFixture(extension))).toBe(format);
  });

  it('trusts the content over the name for office documents', () => {
    expect(detectFormat('novel.odt', readFixture('docx'))).toBe('docx');
    expect(detectFormat('novel.docx', readFixture('odt'))).toBe('odt');
    expect(detectFormat('novel.doc', readFixture('rtf'))).toBe('rtf'); // Word saves RTF as .doc too
    expect(detectFormat('novel', readFixture('docx'))).toBe('docx');
  });

  it('uses the name to tell text, Markdown and HTML apart', () => {
    const bytes = utf8('# Chapter 1\n\nIt was *dark*.\n');
    expect(detectFormat('a.md', bytes)).toBe('md');
    expect(detectFormat('a.markdown', bytes)).toBe('md');
    expect(detectFormat('a.txt', bytes)).toBe('txt');
    expect(detectFormat('a.HTM', utf8('<p>x</p>'))).toBe('html');
  });

  it('accepts text in UTF-16 and in single-byte encodings', () => {
    expect(detectFormat('a.txt', encodeText('Chapter 1\n\nCafé crème.', 'utf-16le', true))).toBe(
      'txt',
    );
    expect(detectFormat('a.txt', encodeText('Chapter 1\n\nCafé crème.', 'utf-16be'))).toBe('txt');
    expect(detectFormat('a.txt', encodeText('“Café” — 5 €', 'windows-1252'))).toBe('txt');
  });

  it('refuses a .docx that is not a zip, asking to save it again as .docx', () => {
    const error = detectionError(
      'novel.docx',
      utf8('This is just text pretending to be a document.'),
    );
    expect(error.code).toBe('corrupt');
    expect(error.message).toMatch(/save it again as \.docx/);
  });

  it('refuses a zip that is not a Word document under a .docx name', () => {
    const error = detectionError('novel.docx', buildZip({ 'hello.txt': 'hi' }));
    expect(error.code).toBe('corrupt');
  });

  it('refuses a password-protected DOCX (encrypted OLE container)', () => {
    const error = detectionError('novel.docx', buildCfb(['EncryptionInfo', 'EncryptedPackage']));
    expect(error.code).toBe('encrypted');
    expect(error.message).toMatch(/remove the password and upload again/i);
  });

  it('still tells an encrypted DOCX from a .doc when the container is too damaged to walk', () => {
    const damaged = (streams: string[], offset: number, value: number) => {
      const bytes = buildCfb(streams);
      new DataView(bytes.buffer).setUint32(offset, value, true);
      return bytes;
    };
    // The directory's first sector out of range; the FAT's sector past the end of the file.
    const encrypted = damaged(['EncryptionInfo', 'EncryptedPackage'], 0x30, 0xfffffff0);
    expect(detectionError('novel.docx', encrypted).code).toBe('encrypted');
    const legacy = damaged(['WordDocument', '1Table'], 0x4c, 7);
    expect(detectionError('novel', legacy).code).toBe('legacy_doc');
  });

  it('refuses a password-protected ODT (encryption data in its manifest) at once', () => {
    const odt = buildZip({
      mimetype: 'application/vnd.oasis.opendocument.text',
      'content.xml': 'not readable without the password',
      'META-INF/manifest.xml':
        '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="content.xml"><manifest:encryption-data manifest:checksum-type="SHA1/1K"/></manifest:file-entry></manifest:manifest>',
    });
    const error = detectionError('novel.odt', odt);
    expect(error.code).toBe('encrypted');
    expect(error.message).toMatch(/remove the password and upload again/i);
  });

  it('refuses a legacy Word .doc, asking to save it as .docx', () => {
    const error = detectionError('novel.doc', buildCfb(['WordDocument', '1Table']));
    expect(error.code).toBe('legacy_doc');
    expect(error.message).toMatch(/save it as \.docx/);
    expect(detectionError('novel.docx', buildCfb(['WordDocument'])).code).toBe('legacy_doc');
  });

  it('refuses a PDF, even renamed to .txt', () => {
    const pdf = utf8('%PDF-1.7\n%âãÏÓ\n1 0 obj << /Type /Catalog >> endobj\n');
    for (const name of ['novel.pdf', 'novel.txt', 'novel.docx']) {
      const error = detectionError(name, pdf);
      expect(error.code).toBe('unsupported_format');
      expect(error.message).toMatch(/PDF/);
    }
  });

  it('refuses binary garbage named .txt', () => {
    const garbage = new Uint8Array(4096);
    let seed = 42;
    for (let i = 0; i < garbage.length; i += 1) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      garbage[i] = seed >>> 24;
    }
    expect(detectionError('novel.txt', garbage).code).toBe('unsupported_format');
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    expect(detectionError('cover.md', png).code).toBe('unsupported_format');
  });

  it('refuses an unknown extension, naming the accepted formats', () => {
    for (const name of ['novel.pages', 'novel.xyz', 'novel']) {
      const error = detectionError(name, utf8('Plain words.'));
      expect(error.code).toBe('unsupported_format');
      expect(error.message).toContain('DOCX, RTF, ODT, text, HTML and Markdown');
    }
  });

  it('refuses empty and oversized files', () => {
    expect(detectionError('novel.txt', new Uint8Array(0)).code).toBe('empty');
    expect(detectionError('novel.txt', new Uint8Array(MAX_INPUT_BYTES + 1)).code).toBe('too_large');
  });
});
