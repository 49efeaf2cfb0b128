// Builders of test inputs for the conversion tests: every test makes its own bytes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import type { Element, Root } from 'hast';
import iconv from 'iconv-lite';
import { fromParse5 } from 'hast-util-from-parse5';
import { parseFragment } from 'parse5';

const FIXTURES_DIR = fileURLToPath(new URL('./fixtures', import.meta.url));

/** What the generator says every small fixture contains (see bench/fixtures/generate.ts). */
interface FixtureManifest {
  title: string;
  words: number;
  headings: Array<{ level: 1 | 2; text: string }>;
  sceneBreaks: number;
  emphasis: number;
  strong: number;
  footnote: string;
  tableCell: string;
}

/** A fresh copy of a committed small fixture. */
export function readFixture(format: string): Uint8Array {
  return new Uint8Array(readFileSync(join(FIXTURES_DIR, `small.${format}`)));
}

export function readManifest(): FixtureManifest {
  return JSON.parse(readFileSync(join(FIXTURES_DIR, 'small.json'), 'utf8')) as FixtureManifest;
}

export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** Text in another encoding, optionally with its byte-order mark. */
export function encodeText(
  text: string,
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252' | 'latin1',
  withBom = false,
): Uint8Array {
  const bom: Record<string, number[]> = {
    'utf-8': [0xef, 0xbb, 0xbf],
    'utf-16le': [0xff, 0xfe],
    'utf-16be': [0xfe, 0xff],
  };
  const body = new Uint8Array(iconv.encode(text, encoding));
  const prefix = withBom ? (bom[encoding] ?? []) : [];
  return new Uint8Array([...prefix, ...body]);
}

/** A minimal Compound File Binary container (version 3) holding empty streams with these names. */
export function buildCfb(streamNames: string[]): Uint8Array {
  const sectorSize = 512;
  const bytes = new Uint8Array(sectorSize * 3); // header, FAT (sector 0), directory (sector 1)
  const view = new DataView(bytes.buffer);
  bytes.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  view.setUint16(0x18, 0x003e, true);
  view.setUint16(0x1a, 3, true);
  view.setUint16(0x1c, 0xfffe, true);
  view.setUint16(0x1e, 9, true);
  view.setUint16(0x20, 6, true);
  view.setUint32(0x2c, 1, true); // one FAT sector
  view.setUint32(0x30, 1, true); // directory starts at sector 1
  view.setUint32(0x38, 4096, true);
  view.setUint32(0x3c, 0xfffffffe, true);
  view.setUint32(0x44, 0xfffffffe, true);
  for (let i = 0; i < 109; i += 1) view.setUint32(0x4c + i * 4, i === 0 ? 0 : 0xffffffff, true);

  const fat = sectorSize;
  for (let i = 0; i < 128; i += 1) view.setUint32(fat + i * 4, 0xffffffff, true);
  view.setUint32(fat, 0xfffffffd, true); // sector 0 is the FAT
  view.setUint32(fat + 4, 0xfffffffe, true); // sector 1 (directory) ends its chain

  const directory = sectorSize * 2;
  const entries: Array<{ name: string; type: number }> = [
    { name: 'Root Entry', type: 5 },
    ...streamNames.slice(0, 3).map((name) => ({ name, type: 2 })),
  ];
  entries.forEach((entry, i) => {
    const base = directory + i * 128;
    for (let c = 0; c < entry.name.length; c += 1)
      view.setUint16(base + c * 2, entry.name.charCodeAt(c), true);
    view.setUint16(base + 0x40, (entry.name.length + 1) * 2, true);
    bytes[base + 0x42] = entry.type;
    view.setUint32(base + 0x44, 0xffffffff, true);
    const isLastStream = i === 0 || i === entries.length - 1;
    view.setUint32(base + 0x48, isLastStream ? 0xffffffff : i + 1, true);
    view.setUint32(base + 0x4c, i === 0 && entries.length > 1 ? 1 : 0xffffffff, true);
    view.setUint32(base + 0x74, 0xfffffffe, true);
  });
  return bytes;
}

/** A zip archive of these entries (strings are stored as UTF-8). */
export function buildZip(
  entries: Record<string, string | Uint8Array>,
  level: 0 | 6 = 6,
): Uint8Array {
  const zippable: Zippable = {};
  for (const [name, content] of Object.entries(entries)) {
    zippable[name] = [typeof content === 'string' ? strToU8(content) : content, { level }];
  }
  return zipSync(zippable);
}

/** The entries of a zip archive, to change and zip again. */
export function unzip(bytes: Uint8Array): Record<string, Uint8Array> {
  return unzipSync(bytes);
}

const WORD_NAMESPACES =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" ' +
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

/**
 * A minimal DOCX whose body is the given WordprocessingML, with extra relationships (for
 * hyperlinks): `{ rId9: 'javascript:alert(1)' }` becomes an external hyperlink target.
 */
export function buildDocx(bodyXml: string, hyperlinks: Record<string, string> = {}): Uint8Array {
  const relationships = Object.entries(hyperlinks)
    .map(
      ([id, target]) =>
        `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="${escapeXml(target)}" TargetMode="External"/>`,
    )
    .join('');
  return buildZip({
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    '_rels/.rels':
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    'word/_rels/document.xml.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${relationships}</Relationships>`,
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8"?><w:document ${WORD_NAMESPACES}><w:body>${bodyXml}</w:body></w:document>`,
    'word/styles.xml': `<?xml version="1.0" encoding="UTF-8"?><w:styles ${WORD_NAMESPACES}>${STYLES}</w:styles>`,
  });
}

const STYLES = [
  ['paragraph', 'Title', 'Title'],
  ['paragraph', 'Heading1', 'heading 1'],
  ['character', 'Emphasis', 'Emphasis'],
  ['character', 'Strong', 'Strong'],
]
  .map(
    ([type, id, name]) =>
      `<w:style w:type="${type}" w:styleId="${id}"><w:name w:val="${name}"/></w:style>`,
  )
  .join('');

/** One WordprocessingML paragraph of plain text (escaped), optionally in a paragraph style. */
export function docxParagraph(text: string, style?: string): string {
  const properties = style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : '';
  return `<w:p>${properties}<w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`;
}

const SAFE_TAGS = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'em',
  'strong',
  'sup',
  'sub',
  'ul',
  'ol',
  'li',
  'blockquote',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'hr',
  'a',
  'img',
  'br',
  'section',
  // A picture's placeholder (span.missing-picture) and formulas (MathML Core, normalise/mathml.ts).
  'span',
  ...['math', 'mrow', 'mi', 'mn', 'mo', 'ms', 'mtext', 'mspace', 'mfrac', 'msqrt', 'mroot'],
  ...['msub', 'msup', 'msubsup', 'munder', 'mover', 'munderover', 'mmultiscripts'],
  ...['mprescripts', 'none', 'mtable', 'mtr', 'mtd', 'mstyle', 'mpadded', 'mphantom', 'merror'],
]);
const SAFE_ATTRIBUTES = new Set([
  'id',
  'class',
  'href',
  'rel',
  'src',
  'alt',
  'start',
  'colspan',
  'rowspan',
  'aria-label',
  'role',
  ...['display', 'displaystyle', 'scriptlevel', 'mathvariant', 'dir', 'form', 'fence'],
  ...['separator', 'stretchy', 'symmetric', 'largeop', 'movablelimits', 'lspace', 'rspace'],
  ...['minsize', 'maxsize', 'accent', 'accentunder', 'linethickness', 'width', 'height'],
  ...['depth', 'voffset', 'columnspan'],
]);

/**
 * Parses converted HTML as a browser would and throws on any element or attribute outside the
 * allow-list, and on any link or image URL that is not http(s), mailto, an in-page anchor or our store.
 */
export function assertSafeHtml(html: string, imagePrefix = '/media/'): void {
  const walk = (node: Root | Element) => {
    for (const child of node.children) {
      if (child.type === 'comment' || child.type === 'doctype')
        throw new Error(`unexpected ${child.type}`);
      if (child.type !== 'element') continue;
      if (!SAFE_TAGS.has(child.tagName)) throw new Error(`unexpected <${child.tagName}>`);
      for (const attribute of Object.keys(child.properties)) {
        const name =
          attribute === 'className'
            ? 'class'
            : attribute.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
        const normalised = name === 'col-span' ? 'colspan' : name === 'row-span' ? 'rowspan' : name;
        if (!SAFE_ATTRIBUTES.has(normalised))
          throw new Error(`unexpected attribute ${name} on <${child.tagName}>`);
      }
      const href = child.properties.href;
      if (typeof href === 'string' && !/^(?:https?:\/\/|mailto:|#fn)/.test(href))
        throw new Error(`unsafe href ${href}`);
      const src = child.properties.src;
      if (typeof src === 'string' && !src.startsWith(imagePrefix))
        throw new Error(`foreign image ${src}`);
      walk(child);
    }
  };
  walk(fromParse5(parseFragment(html), {}) as Root);
}

export function escapeXml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
