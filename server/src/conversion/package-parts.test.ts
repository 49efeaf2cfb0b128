// DOCX main parts found through the package relationships, and titles from the document's
// own properties (DOCX core.xml, ODT meta.xml, HTML <title>, Markdown front matter).
import { describe, expect, it } from 'vitest';
import { detectFormat } from './detect-format.ts';
import { buildWordDocx, paragraph } from './docx-test-builder.ts';
import { convertDocument } from './index.ts';
import { buildZip, unzip, utf8 } from './test-factories.ts';

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const RELATIONSHIPS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const TYPES = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/';
const WORD_MAIN =
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml';

/** A Word-made DOCX whose parts are moved to word/document2.xml, as some writers name it. */
function docxWithMainPartAt(mainPath: string, body: string): Uint8Array {
  const entries = unzip(buildWordDocx({ body }));
  const directory = mainPath.slice(0, mainPath.lastIndexOf('/'));
  const name = mainPath.slice(mainPath.lastIndexOf('/') + 1);
  entries[mainPath] = entries['word/document.xml']!;
  entries[`${directory}/_rels/${name}.rels`] = entries['word/_rels/document.xml.rels']!;
  delete entries['word/document.xml'];
  delete entries['word/_rels/document.xml.rels'];
  entries['_rels/.rels'] = utf8(
    `${XML}<Relationships xmlns="${RELATIONSHIPS}"><Relationship Id="rId1" Type="${TYPES}officeDocument" Target="/${mainPath}"/></Relationships>`,
  );
  entries['[Content_Types].xml'] = utf8(
    `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/${mainPath}" ContentType="${WORD_MAIN}"/></Types>`,
  );
  return buildZip(entries);
}

function withFiles(bytes: Uint8Array, files: Record<string, string>): Uint8Array {
  const entries = unzip(bytes);
  for (const [name, content] of Object.entries(files)) entries[name] = utf8(content);
  return buildZip(entries);
}

function coreProperties(title: string): string {
  return `${XML}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${title}</dc:title><dc:creator>A. Author</dc:creator></cp:coreProperties>`;
}

describe('the DOCX main part', () => {
  it('is found through _rels/.rels, with its own part-relative relationships', async () => {
    const body =
      paragraph('The Lighthouse', { style: 'Heading1' }) +
      paragraph('She climbed the stairs at dawn.');
    const bytes = docxWithMainPartAt('word/document2.xml', body);
    expect(detectFormat('book.docx', bytes)).toBe('docx');
    const result = await convertDocument(bytes, 'docx');
    expect(result.html).toContain('She climbed the stairs at dawn.');
    // The styles part is found through word/_rels/document2.xml.rels: the heading is a heading.
    expect(result.toc.map((entry) => entry.text)).toEqual(['The Lighthouse']);
  });

  it('is found in another folder too', async () => {
    const bytes = docxWithMainPartAt('content/main.xml', paragraph('Moved text.'));
    expect(detectFormat('book.docx', bytes)).toBe('docx');
    expect((await convertDocument(bytes, 'docx')).html).toContain('Moved text.');
  });

  it('is found when the main part has only the default content type', async () => {
    const entries = unzip(docxWithMainPartAt('word/document2.xml', paragraph('Typed by default.')));
    entries['[Content_Types].xml'] = utf8(
      `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>`,
    );
    const bytes = buildZip(entries);
    expect(detectFormat('book.docx', bytes)).toBe('docx');
    expect((await convertDocument(bytes, 'docx')).html).toContain('Typed by default.');
  });

  it('is not taken from a spreadsheet, whose main part is a workbook', () => {
    const xlsx = buildZip({
      '_rels/.rels': `${XML}<Relationships xmlns="${RELATIONSHIPS}"><Relationship Id="rId1" Type="${TYPES}officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      '[Content_Types].xml': `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>`,
      'xl/workbook.xml': `${XML}<workbook/>`,
    });
    expect(() => detectFormat('sheet.docx', xlsx)).toThrow(/not a valid DOCX/);
  });

  it('still falls back to word/document.xml when the relationships are missing', async () => {
    const entries = unzip(buildWordDocx({ body: paragraph('No package relationships.') }));
    delete entries['_rels/.rels'];
    const bytes = buildZip(entries);
    expect(detectFormat('book.docx', bytes)).toBe('docx');
    expect((await convertDocument(bytes, 'docx')).html).toContain('No package relationships.');
  });
});

describe('the title a document states', () => {
  it('is the DOCX dc:title before the first heading', async () => {
    const docx = withFiles(
      buildWordDocx({
        body: paragraph('Chapter One', { style: 'Heading1' }) + paragraph('It began.'),
      }),
      { 'docProps/core.xml': coreProperties('The Salt &amp; the Sea') },
    );
    expect((await convertDocument(docx, 'docx')).title).toBe('The Salt & the Sea');
  });

  it('is a DOCX Title paragraph before the dc:title', async () => {
    const docx = withFiles(
      buildWordDocx({ body: paragraph('Shown Title', { style: 'Title' }) + paragraph('Text.') }),
      { 'docProps/core.xml': coreProperties('Property Title') },
    );
    expect((await convertDocument(docx, 'docx')).title).toBe('Shown Title');
  });

  it('ignores a generated DOCX dc:title and takes the first heading', async () => {
    const docx = withFiles(
      buildWordDocx({
        body: paragraph('Chapter One', { style: 'Heading1' }) + paragraph('It began.'),
      }),
      { 'docProps/core.xml': coreProperties('Microsoft Word - draft3.doc') },
    );
    expect((await convertDocument(docx, 'docx')).title).toBe('Chapter One');
  });

  it('is the ODT meta.xml dc:title before the first heading', async () => {
    const office = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"';
    const text = 'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"';
    const odt = buildZip(
      {
        mimetype: 'application/vnd.oasis.opendocument.text',
        'content.xml': `${XML}<office:document-content ${office} ${text}><office:body><office:text><text:h text:outline-level="1">Chapter One</text:h><text:p>It began.</text:p></office:text></office:body></office:document-content>`,
        'meta.xml': `${XML}<office:document-meta ${office} xmlns:dc="http://purl.org/dc/elements/1.1/"><office:meta><dc:title>Winter Orchard</dc:title></office:meta></office:document-meta>`,
      },
      0,
    );
    expect((await convertDocument(odt, 'odt')).title).toBe('Winter Orchard');
  });

  it('is the HTML <title> before the first heading', async () => {
    const html = utf8(
      '<html><head><title>Night Ferry</title></head><body><h1>Chapter One</h1><p>It began.</p></body></html>',
    );
    expect((await convertDocument(html, 'html')).title).toBe('Night Ferry');
  });

  it('is the Markdown front matter title before the first heading', async () => {
    const markdown = utf8('---\ntitle: "Paper Moons"\n---\n\n# Chapter One\n\nIt began.\n');
    expect((await convertDocument(markdown, 'md')).title).toBe('Paper Moons');
  });
});
