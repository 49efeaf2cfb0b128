// Builders of DOCX packages for the DOCX reader's tests, written the way Word writes them: every
// test makes its own bytes. (test-factories.ts has the minimal buildDocx the other tests use.)
import { buildZip, escapeXml } from './test-factories.ts';

const NAMESPACES = {
  w: 'http://schemas.openxmlformats.org/wordprocessingml/2006/main',
  r: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  wp: 'http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing',
  a: 'http://schemas.openxmlformats.org/drawingml/2006/main',
  pic: 'http://schemas.openxmlformats.org/drawingml/2006/picture',
  mc: 'http://schemas.openxmlformats.org/markup-compatibility/2006',
  v: 'urn:schemas-microsoft-com:vml',
  o: 'urn:schemas-microsoft-com:office:office',
  w10: 'urn:schemas-microsoft-com:office:word',
  w14: 'http://schemas.microsoft.com/office/word/2010/wordml',
  wps: 'http://schemas.microsoft.com/office/word/2010/wordprocessingShape',
  m: 'http://schemas.openxmlformats.org/officeDocument/2006/math',
};
const DECLARATIONS = Object.entries(NAMESPACES)
  .map(([prefix, uri]) => `xmlns:${prefix}="${uri}"`)
  .join(' ');

const RELATIONSHIP = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/';
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';

/** A 1×1 PNG. */
export const PNG = new Uint8Array(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
);
/** A 4×3 PNG, to tell two images apart. */
export const OTHER_PNG = new Uint8Array(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAEElEQVR4nGM4IScHRww4OQD1xwwxB+utmQAAAABJRU5ErkJggg==',
    'base64',
  ),
);

/** A relationship of the main document (or of a notes part). */
export interface TestRelationship {
  id: string;
  /** The last part of the type's URL: "hyperlink", "image"… */
  type: string;
  target: string;
  external?: boolean;
}

export interface DocxParts {
  /** The WordprocessingML inside w:body. */
  body: string;
  /** The w:style elements of styles.xml (default: WORD_STYLES); null for no styles part. */
  styles?: string | null;
  /** The content of numbering.xml (w:abstractNum and w:num elements). */
  numbering?: string;
  /** w:footnote elements; the separators Word writes come first. */
  footnotes?: string;
  endnotes?: string;
  relationships?: TestRelationship[];
  footnoteRelationships?: TestRelationship[];
  /** Other entries, such as word/media/image1.png. */
  files?: Record<string, string | Uint8Array>;
}

/** Styles as Word defines them: ids without spaces, names in lower case for the built-in ones. */
export const WORD_STYLES = [
  style('paragraph', 'Normal', 'Normal'),
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((level) =>
    style(
      'paragraph',
      `Heading${level}`,
      `heading ${level}`,
      `<w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="${level - 1}"/></w:pPr><w:rPr><w:b/></w:rPr>`,
    ),
  ),
  style('paragraph', 'Title', 'Title', '<w:basedOn w:val="Normal"/>'),
  style('paragraph', 'Subtitle', 'Subtitle', '<w:basedOn w:val="Normal"/>'),
  style('paragraph', 'Quote', 'Quote', '<w:basedOn w:val="Normal"/><w:rPr><w:i/></w:rPr>'),
  style('paragraph', 'IntenseQuote', 'Intense Quote', '<w:basedOn w:val="Normal"/>'),
  style('paragraph', 'ListParagraph', 'List Paragraph', '<w:basedOn w:val="Normal"/>'),
  style('paragraph', 'FootnoteText', 'footnote text', '<w:basedOn w:val="Normal"/>'),
  style(
    'paragraph',
    'TOCHeading',
    'TOC Heading',
    '<w:basedOn w:val="Heading1"/><w:pPr><w:outlineLvl w:val="9"/></w:pPr>',
  ),
  style('character', 'Emphasis', 'Emphasis', '<w:rPr><w:i/></w:rPr>'),
  style('character', 'Strong', 'Strong', '<w:rPr><w:b/></w:rPr>'),
  style('character', 'SubtleEmphasis', 'Subtle Emphasis', '<w:rPr><w:i/></w:rPr>'),
  style('character', 'IntenseEmphasis', 'Intense Emphasis', '<w:rPr><w:i/></w:rPr>'),
  style('character', 'BookTitle', 'Book Title', '<w:rPr><w:b/><w:i/></w:rPr>'),
  style('character', 'Hyperlink', 'Hyperlink', '<w:rPr><w:u w:val="single"/></w:rPr>'),
  style(
    'character',
    'FootnoteReference',
    'footnote reference',
    '<w:rPr><w:vertAlign w:val="superscript"/></w:rPr>',
  ),
  style(
    'character',
    'EndnoteReference',
    'endnote reference',
    '<w:rPr><w:vertAlign w:val="superscript"/></w:rPr>',
  ),
  style('character', 'ItalicLook', 'Italic Look', '<w:rPr><w:i/></w:rPr>'),
].join('');

/** One w:style element. */
export function style(type: string, id: string, name: string, inner = ''): string {
  return `<w:style w:type="${type}" w:styleId="${id}"><w:name w:val="${name}"/>${inner}</w:style>`;
}

/** A DOCX package as Word lays it out. */
export function buildWordDocx(parts: DocxParts): Uint8Array {
  const relationships = [...(parts.relationships ?? [])];
  const files: Record<string, string | Uint8Array> = {
    '[Content_Types].xml': `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    '_rels/.rels': relationshipsXml([
      { id: 'rId1', type: 'officeDocument', target: 'word/document.xml' },
    ]),
    'word/document.xml': `${XML}<w:document ${DECLARATIONS}><w:body>${parts.body}<w:sectPr/></w:body></w:document>`,
  };
  const styles = parts.styles === undefined ? WORD_STYLES : parts.styles;
  if (styles !== null) {
    files['word/styles.xml'] = `${XML}<w:styles ${DECLARATIONS}>${styles}</w:styles>`;
    relationships.push({ id: 'rIdStyles', type: 'styles', target: 'styles.xml' });
  }
  if (parts.numbering !== undefined) {
    files['word/numbering.xml'] =
      `${XML}<w:numbering ${DECLARATIONS}>${parts.numbering}</w:numbering>`;
    relationships.push({ id: 'rIdNumbering', type: 'numbering', target: 'numbering.xml' });
  }
  for (const kind of ['footnote', 'endnote'] as const) {
    const notes = parts[`${kind}s`];
    if (notes === undefined) continue;
    const separators = `<w:${kind} w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:${kind}><w:${kind} w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:${kind}>`;
    files[`word/${kind}s.xml`] =
      `${XML}<w:${kind}s ${DECLARATIONS}>${separators}${notes}</w:${kind}s>`;
    relationships.push({ id: `rId${kind}s`, type: `${kind}s`, target: `${kind}s.xml` });
  }
  if (parts.footnoteRelationships !== undefined) {
    files['word/_rels/footnotes.xml.rels'] = relationshipsXml(parts.footnoteRelationships);
  }
  files['word/_rels/document.xml.rels'] = relationshipsXml(relationships);
  return buildZip({ ...files, ...parts.files });
}

function relationshipsXml(relationships: TestRelationship[]): string {
  const items = relationships
    .map(
      ({ id, type, target, external }) =>
        `<Relationship Id="${id}" Type="${RELATIONSHIP}${type}" Target="${escapeXml(target)}"${external ? ' TargetMode="External"' : ''}/>`,
    )
    .join('');
  return `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items}</Relationships>`;
}

interface RunOptions {
  style?: string;
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  underline?: boolean;
  verticalAlign?: 'superscript' | 'subscript';
}

/** A run of text (escaped) with direct formatting. */
export function run(text: string, options: RunOptions = {}): string {
  const properties = [
    options.style ? `<w:rStyle w:val="${options.style}"/>` : '',
    options.bold ? '<w:b/>' : '',
    options.italic ? '<w:i/>' : '',
    options.strike ? '<w:strike/>' : '',
    options.underline ? '<w:u w:val="single"/>' : '',
    options.verticalAlign ? `<w:vertAlign w:val="${options.verticalAlign}"/>` : '',
  ].join('');
  return `<w:r>${properties ? `<w:rPr>${properties}</w:rPr>` : ''}<w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`;
}

interface ParagraphOptions {
  style?: string;
  numId?: number | string;
  level?: number;
  outlineLevel?: number;
}

/** A paragraph of runs (strings are plain runs). */
export function paragraph(content: string | string[], options: ParagraphOptions = {}): string {
  const runs = typeof content === 'string' ? run(content) : content.join('');
  const level = options.level === undefined ? '' : `<w:ilvl w:val="${options.level}"/>`;
  const numId = options.numId === undefined ? '' : `<w:numId w:val="${options.numId}"/>`;
  const numbering = level || numId ? `<w:numPr>${level}${numId}</w:numPr>` : '';
  const properties = [
    options.style ? `<w:pStyle w:val="${options.style}"/>` : '',
    numbering,
    options.outlineLevel === undefined ? '' : `<w:outlineLvl w:val="${options.outlineLevel}"/>`,
  ].join('');
  return `<w:p>${properties ? `<w:pPr>${properties}</w:pPr>` : ''}${runs}</w:p>`;
}

/** An abstract list definition with one format per level, and a w:num for it. */
export function listDefinition(
  numId: number,
  formats: string[],
  options: { abstractId?: number; styleOfLevel?: Record<number, string> } = {},
): string {
  const abstractId = options.abstractId ?? numId;
  const levels = formats
    .map((format, level) => {
      const paragraphStyle = options.styleOfLevel?.[level];
      return `<w:lvl w:ilvl="${level}"><w:start w:val="1"/><w:numFmt w:val="${format}"/>${paragraphStyle ? `<w:pStyle w:val="${paragraphStyle}"/>` : ''}<w:lvlText w:val="%${level + 1}."/></w:lvl>`;
    })
    .join('');
  return `<w:abstractNum w:abstractNumId="${abstractId}">${levels}</w:abstractNum><w:num w:numId="${numId}"><w:abstractNumId w:val="${abstractId}"/></w:num>`;
}

/** An inline DrawingML picture of the relationship `id`, as Word writes it. */
export function drawing(
  id: string,
  options: { descr?: string; title?: string; linkId?: string } = {},
): string {
  const attributes = [
    options.descr === undefined ? '' : ` descr="${escapeXml(options.descr)}"`,
    options.title === undefined ? '' : ` title="${escapeXml(options.title)}"`,
  ].join('');
  const link = options.linkId ? `<a:hlinkClick r:id="${options.linkId}"/>` : '';
  return `<w:r><w:drawing><wp:inline><wp:extent cx="9525" cy="9525"/><wp:docPr id="1" name="Picture 1"${attributes}>${link}</wp:docPr><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="0" name="image.png"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="${id}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr/></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
}

/** A complex field: begin, instructions, separate, the result runs, end. */
export function field(instructions: string, result: string[]): string {
  return [
    '<w:r><w:fldChar w:fldCharType="begin"/></w:r>',
    `<w:r><w:instrText xml:space="preserve">${escapeXml(instructions)}</w:instrText></w:r>`,
    '<w:r><w:fldChar w:fldCharType="separate"/></w:r>',
    ...result,
    '<w:r><w:fldChar w:fldCharType="end"/></w:r>',
  ].join('');
}
