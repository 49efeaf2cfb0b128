// A synthetic DOCX (and the same text as Markdown, plain text and HTML) that a conversion thread
// converts at start: it loads the DOCX reader, the normaliser and the other converters into the thread
// and lets V8 optimise their hot paths, so the first author's upload does not pay for that.
// Built in memory, so the warm-up needs no file on disk.
import { strToU8, zipSync } from 'fflate';

const WORDS = (
  'the harbour lamps burned low while the cartographer counted streets that moved at night ' +
  'she folded the map along its oldest crease and listened to the tide under the stones ' +
  'nobody in the guild remembered who had drawn the blank corner or why it was never filled'
).split(' ');

/** Deterministic prose: paragraph `index` of about `words` words. */
function sentence(index: number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[(index * 7 + i * 13) % WORDS.length]!);
  const text = out.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1) + '.';
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

interface Block {
  kind: 'h1' | 'h2' | 'p' | 'break';
  text: string;
  /** Words of `text` set in italics / bold (paragraphs only). */
  em?: string;
  strong?: string;
}

function blocks(paragraphs: number): Block[] {
  const out: Block[] = [];
  for (let i = 0; i < paragraphs; i++) {
    if (i % 60 === 0) out.push({ kind: 'h1', text: `Chapter ${i / 60 + 1}` });
    else if (i % 20 === 0) out.push({ kind: 'h2', text: `Part ${i / 20 + 1}` });
    if (i % 25 === 24) out.push({ kind: 'break', text: '* * *' });
    out.push({ kind: 'p', text: sentence(i, 40 + (i % 30)), em: 'quietly', strong: 'never' });
  }
  return out;
}

function docxParagraph(block: Block): string {
  const run = (text: string, props = '') =>
    `<w:r>${props ? `<w:rPr>${props}</w:rPr>` : ''}<w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`;
  if (block.kind === 'h1' || block.kind === 'h2') {
    const style = block.kind === 'h1' ? 'Heading1' : 'Heading2';
    return `<w:p><w:pPr><w:pStyle w:val="${style}"/></w:pPr>${run(block.text)}</w:p>`;
  }
  if (block.kind === 'break')
    return `<w:p><w:pPr><w:jc w:val="center"/></w:pPr>${run(block.text)}</w:p>`;
  return (
    `<w:p>${run(block.text + ' ')}${run(block.em!, '<w:rStyle w:val="Emphasis"/>')}` +
    `${run(' and ')}${run(block.strong!, '<w:b/>')}${run(' ')}${run('again', '<w:i/>')}</w:p>`
  );
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';

const STYLES =
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="${W}">` +
  '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>' +
  '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style>' +
  '<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style>' +
  '<w:style w:type="character" w:styleId="Emphasis"><w:name w:val="Emphasis"/></w:style>' +
  '</w:styles>';

/** A DOCX of `paragraphs` paragraphs (about 55 words each) with headings, italics, bold and scene breaks. */
export function warmUpDocx(paragraphs: number): Uint8Array {
  const body = blocks(paragraphs).map(docxParagraph).join('');
  return zipSync({
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
        '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>' +
        '</Types>',
    ),
    '_rels/.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="${PKG_REL}">` +
        `<Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    'word/_rels/document.xml.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="${PKG_REL}">` +
        `<Relationship Id="rId1" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
    ),
    'word/styles.xml': strToU8(STYLES),
    'word/document.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`,
    ),
  });
}

/** The same kind of text as Markdown. */
export function warmUpMarkdown(paragraphs: number): Uint8Array {
  const text = blocks(paragraphs)
    .map((block) => {
      if (block.kind === 'h1') return `# ${block.text}`;
      if (block.kind === 'h2') return `## ${block.text}`;
      if (block.kind === 'break') return '* * *';
      return `${block.text} *${block.em}* and **${block.strong}** _again_`;
    })
    .join('\n\n');
  return strToU8(text);
}

/** The same kind of text as plain text. */
export function warmUpText(paragraphs: number): Uint8Array {
  const text = blocks(paragraphs)
    .map((block) =>
      block.kind === 'p' ? `${block.text} ${block.em} and ${block.strong}` : block.text,
    )
    .join('\n\n');
  return strToU8(text);
}

/** The same kind of text as an HTML page. */
export function warmUpHtml(paragraphs: number): Uint8Array {
  const body = blocks(paragraphs)
    .map((block) => {
      if (block.kind === 'h1') return `<h1>${escapeXml(block.text)}</h1>`;
      if (block.kind === 'h2') return `<h2>${escapeXml(block.text)}</h2>`;
      if (block.kind === 'break') return '<p>* * *</p>';
      return `<p>${escapeXml(block.text)} <em>${block.em}</em> and <strong>${block.strong}</strong></p>`;
    })
    .join('\n');
  return strToU8(
    `<!doctype html><html><head><title>Warm-up</title></head><body>${body}</body></html>`,
  );
}
