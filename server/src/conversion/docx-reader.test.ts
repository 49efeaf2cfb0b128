// Our DOCX reader on its own: what it makes of each construct (docx-oracle.test.ts compares it
// with mammoth as a whole), and which documents it hands to mammoth.
import { describe, expect, it } from 'vitest';
import { convertDocxWithReport, type DocxConversion } from './docx.ts';
import {
  buildWordDocx,
  drawing,
  field,
  listDefinition,
  OTHER_PNG,
  paragraph,
  PNG,
  run,
  style,
  WORD_STYLES,
  type DocxParts,
} from './docx-test-builder.ts';
import { ConversionError } from './errors.ts';
import { defaultImageUrl } from './images.ts';
import { assertSafeHtml, unzip, buildZip } from './test-factories.ts';

async function convert(parts: DocxParts | Uint8Array): Promise<DocxConversion> {
  const bytes = parts instanceof Uint8Array ? parts : buildWordDocx(parts);
  return convertDocxWithReport(bytes, defaultImageUrl);
}

/** Our reader's HTML without block ids, one block a line. */
async function read(parts: DocxParts | Uint8Array): Promise<string> {
  const conversion = await convert(parts);
  if (conversion.reader === 'mammoth') throw new Error(`fell back: ${conversion.reason}`);
  return conversion.result.html.replace(/ id="b-[0-9a-f]{10}-\d+"/g, '').trim();
}

async function fallbackReason(parts: DocxParts | Uint8Array): Promise<string> {
  const conversion = await convert(parts);
  if (conversion.reader !== 'mammoth') return 'read by our reader';
  // The result says so too, for the conversion job's log line.
  expect(conversion.result.fallback).toBe(`mammoth: ${conversion.reason}`);
  return conversion.reason;
}

const withStyles = (extra: string) => WORD_STYLES + extra;
// The start of an EMF file: record type 1 (EMR_HEADER), and " EMF" at byte 40.
const EMF_HEADER = new Uint8Array(88);
EMF_HEADER.set([1, 0, 0, 0]);
EMF_HEADER.set([0x20, 0x45, 0x4d, 0x46], 40);

describe('the DOCX reader: styles', () => {
  it('follows basedOn chains for outline levels, nearest first', async () => {
    const html = await read({
      styles: withStyles(
        style('paragraph', 'Chapter', 'Chapter', '<w:basedOn w:val="Heading1"/>') +
          style('paragraph', 'Scene', 'Scene', '<w:basedOn w:val="Chapter"/>') +
          style('paragraph', 'Loop', 'Loop', '<w:basedOn w:val="Loop"/>'),
      ),
      body:
        paragraph('Chapter', { style: 'Chapter' }) +
        paragraph('Scene', { style: 'Scene' }) +
        paragraph('Contents', { style: 'TOCHeading' }) +
        paragraph('Body text level', { style: 'Heading2', outlineLevel: 9 }) +
        paragraph('Loop', { style: 'Loop' }),
    });
    // Heading 2 by name wins over the paragraph's own "body text" level, as in mammoth.
    expect(html).toBe(
      '<h1>Chapter</h1>\n<h1>Scene</h1>\n<p>Contents</p>\n<h2>Body text level</h2>\n<p>Loop</p>',
    );
  });

  it('makes Title the title and an h1, Subtitle a paragraph, quotes one block quote', async () => {
    const conversion = await convert({
      body:
        paragraph('The Book', { style: 'Title' }) +
        paragraph('A novel', { style: 'Subtitle' }) +
        paragraph('First quoted.', { style: 'Quote' }) +
        paragraph('Second quoted.', { style: 'IntenseQuote' }) +
        paragraph('Plain.'),
    });
    expect(conversion.result.title).toBe('The Book');
    expect(conversion.result.html.replace(/ id="b-[^"]+"/g, '')).toBe(
      '<h1>The Book</h1>\n<p>A novel</p>\n' +
        '<blockquote><p>First quoted.</p><p>Second quoted.</p></blockquote>\n<p>Plain.</p>\n',
    );
  });

  it('gives only direct formatting and emphasis styles em and strong, not style looks', async () => {
    const html = await read({
      body:
        paragraph([run('Bold heading')], { style: 'Heading1' }) +
        paragraph([run('Italic quote')], { style: 'Quote' }) +
        paragraph([
          run('styled', { style: 'Emphasis' }),
          run(' looks italic', { style: 'ItalicLook' }),
          run(' strong', { style: 'Strong' }),
          run(' intense', { style: 'IntenseEmphasis' }),
          run(' bold', { bold: true }),
          run(' not bold', { bold: true }).replace('<w:b/>', '<w:b w:val="0"/>'),
          run(' both', { bold: true, italic: true }),
          run('2', { verticalAlign: 'superscript' }),
          run('x', { verticalAlign: 'subscript', underline: true }),
        ]),
    });
    expect(html).toBe(
      '<h1>Bold heading</h1>\n<blockquote><p>Italic quote</p></blockquote>\n' +
        // Neighbouring runs share an element where mammoth's would: " intense" is strong > em.
        '<p><em>styled</em> looks italic<strong> strong<em> intense</em> bold</strong>' +
        ' not bold<strong><em> both</em></strong><sup>2</sup><sub>x</sub></p>',
    );
  });

  it('reads documents without a styles part', async () => {
    const html = await read({ styles: null, body: paragraph('Chapter', { style: 'Heading1' }) });
    expect(html).toBe('<h1>Chapter</h1>');
  });
});

describe('the DOCX reader: lists', () => {
  const numbering =
    listDefinition(1, ['bullet', 'decimal', 'bullet']) +
    listDefinition(2, ['decimal'], { styleOfLevel: { 0: 'ListNumber' } });
  const styles = withStyles(
    style('paragraph', 'ListNumber', 'List Number', '<w:basedOn w:val="Normal"/>') +
      style(
        'paragraph',
        'Bulleted',
        'Bulleted',
        '<w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr>',
      ) +
      style(
        'paragraph',
        'Bulleted2',
        'Bulleted 2',
        '<w:basedOn w:val="Bulleted"/><w:pPr><w:numPr><w:ilvl w:val="1"/></w:numPr></w:pPr>',
      ),
  );

  it('nests levels and keeps consecutive items in one list', async () => {
    const html = await read({
      styles,
      numbering,
      body:
        paragraph('One', { numId: 1, level: 0 }) +
        paragraph('One a', { numId: 1, level: 1 }) +
        paragraph('One a i', { numId: 1, level: 2 }) +
        paragraph('Two', { numId: 1, level: 0 }) +
        paragraph('Between.') +
        paragraph('Again', { numId: 1, level: 0 }),
    });
    expect(html).toBe(
      '<ul><li><p>One</p><ol><li><p>One a</p><ul><li>One a i</li></ul></li></ol></li><li>Two</li></ul>\n' +
        '<p>Between.</p>\n<ul><li>Again</li></ul>',
    );
  });

  it('takes lists from paragraph styles: the list level naming the style, or the style itself', async () => {
    const html = await read({
      styles,
      numbering,
      body:
        paragraph('Numbered by Word', { style: 'ListNumber' }) +
        paragraph('Bullet by style', { style: 'Bulleted' }) +
        paragraph('Nested by the style it is based on', { style: 'Bulleted2' }) +
        paragraph('Level from the paragraph', { style: 'Bulleted', level: 1 }) +
        paragraph('Not a list: numId 0', { style: 'Bulleted', numId: 0, level: 0 }),
    });
    expect(html).toBe(
      '<ol><li>Numbered by Word</li></ol>\n' +
        '<ul><li><p>Bullet by style</p><ol><li>Nested by the style it is based on</li>' +
        '<li>Level from the paragraph</li></ol></li></ul>\n<p>Not a list: numId 0</p>',
    );
  });

  it('follows a list definition to the numbering style it links to', async () => {
    const html = await read({
      styles: withStyles(
        style(
          'numbering',
          'Outline',
          'Outline',
          '<w:pPr><w:numPr><w:numId w:val="2"/></w:numPr></w:pPr>',
        ),
      ),
      numbering:
        listDefinition(2, ['decimal']) +
        '<w:abstractNum w:abstractNumId="9"><w:numStyleLink w:val="Outline"/></w:abstractNum>' +
        '<w:num w:numId="3"><w:abstractNumId w:val="9"/></w:num>',
      body: paragraph('Linked', { numId: 3, level: 0 }),
    });
    expect(html).toBe('<ol><li>Linked</li></ol>');
  });
});

describe('the DOCX reader: fields, links and changes', () => {
  const relationships = [
    { id: 'rIdWeb', type: 'hyperlink', target: 'https://example.com/a', external: true },
    { id: 'rIdJs', type: 'hyperlink', target: 'javascript:alert(1)', external: true },
  ];

  it('makes a HYPERLINK field a link around its result, across runs', async () => {
    const html = await read({
      body: paragraph([
        run('See '),
        field(' HYPERLINK "https://example.com/b" \\o "Tip" ', [
          run('the '),
          run('site', { italic: true }),
        ]),
        run(', '),
        field(' HYPERLINK \\l "_Toc1" ', [run('a bookmark')]),
        run(' and '),
        field(' PAGE ', [run('7')]),
        run('.'),
      ]),
    });
    expect(html).toBe(
      '<p>See <a href="https://example.com/b" rel="nofollow noopener noreferrer">the </a>' +
        '<em><a href="https://example.com/b" rel="nofollow noopener noreferrer">site</a></em>' +
        ', a bookmark and 7.</p>',
    );
  });

  it('keeps http links and drops script links, from hyperlinks and fields alike', async () => {
    const { result } = await convert({
      relationships,
      body: paragraph([
        '<w:hyperlink r:id="rIdWeb"><w:r><w:t>web</w:t></w:r></w:hyperlink>',
        '<w:hyperlink r:id="rIdJs"><w:r><w:t> script</w:t></w:r></w:hyperlink>',
        field(' HYPERLINK "javascript:alert(2)" ', [run(' field script')]),
        field(' HYPERLINK "data:text/html,x" ', [run(' data')]),
      ]),
    });
    assertSafeHtml(result.html);
    expect(result.html).toMatch(
      /^<p id="[^"]+"><a href="https:\/\/example.com\/a" rel="nofollow noopener noreferrer">web<\/a> script field script data<\/p>/,
    );
  });

  it("ends a link at a bookmark inside it, as an HTML parser ends mammoth's", async () => {
    const html = await read({
      relationships,
      body: paragraph([
        '<w:hyperlink r:id="rIdWeb">',
        run('linked'),
        '<w:bookmarkStart w:id="1" w:name="here"/>',
        run(' not linked'),
        '</w:hyperlink>',
      ]),
    });
    expect(html).toBe(
      '<p><a href="https://example.com/a" rel="nofollow noopener noreferrer">linked</a> not linked</p>',
    );
  });

  it('reads the mc:Fallback of AlternateContent, and text boxes after their paragraph', async () => {
    const box = `<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor><wp:docPr id="1" name="Box"/><a:graphic><a:graphicData uri="wps"><wps:wsp><wps:txbx><w:txbxContent>${paragraph('Choice box')}</w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent>${paragraph('Box text')}</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>`;
    const html = await read({
      body: paragraph([run('Before '), box, run('after.')]) + paragraph('Next.'),
    });
    expect(html).toBe('<p>Before after.</p>\n<p>Box text</p>\n<p>Next.</p>');
  });

  it('leaves out deleted and moved-away text, keeps inserted text, joins a deleted paragraph mark', async () => {
    const html = await read({
      body:
        paragraph([
          run('Kept '),
          `<w:del w:id="1" w:author="A"><w:r><w:delText>deleted </w:delText></w:r></w:del>`,
          `<w:ins w:id="2" w:author="A">${run('inserted ')}</w:ins>`,
          `<w:moveFrom w:id="3" w:author="A">${run('moved away ')}</w:moveFrom>`,
          `<w:moveTo w:id="4" w:author="A">${run('moved here')}</w:moveTo>`,
        ]) +
        '<w:p><w:pPr><w:rPr><w:del w:id="5" w:author="A"/></w:rPr></w:pPr><w:r><w:t xml:space="preserve">Joined </w:t></w:r></w:p>' +
        paragraph('paragraph.'),
    });
    expect(html).toBe('<p>Kept inserted moved here</p>\n<p>Joined paragraph.</p>');
  });
});

describe('the DOCX reader: notes and pictures', () => {
  it('gives footnotes and endnotes the one shape, numbered in reading order', async () => {
    const { result } = await convert({
      body:
        paragraph([
          run('Text'),
          '<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference w:id="1"/></w:r>',
          run(' more'),
          '<w:r><w:rPr><w:rStyle w:val="EndnoteReference"/></w:rPr><w:endnoteReference w:id="1"/></w:r>',
        ]) +
        '<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Cell</w:t></w:r><w:r><w:footnoteReference w:id="2"/></w:r></w:p></w:tc></w:tr></w:tbl>',
      footnotes:
        `<w:footnote w:id="1"><w:p><w:pPr><w:pStyle w:val="FootnoteText"/></w:pPr><w:r><w:footnoteRef/></w:r>${run(' First note.')}</w:p>${paragraph([run('Second paragraph', { italic: true })])}</w:footnote>` +
        `<w:footnote w:id="2">${paragraph('In a table.')}</w:footnote>`,
      endnotes: `<w:endnote w:id="1">${paragraph('The end note.')}</w:endnote>`,
    });
    const reference = (n: number) =>
      `<sup><a href="#fn-${n}" id="fnref-${n}" class="footnote-ref">${n}</a></sup>`;
    expect(result.html).toContain(`Text${reference(1)} more${reference(2)}</p>`);
    expect(result.html).toContain(`<td>Cell${reference(3)}</td>`);
    expect(result.html).toContain(
      '<section id="footnotes" class="footnotes"><ol>' +
        '<li id="fn-1"><p>First note.</p><p><em>Second paragraph</em> <a href="#fnref-1" class="footnote-back"',
    );
    expect(result.html).toContain('<li id="fn-2"><p>The end note. <a href="#fnref-2"');
    expect(result.html).toContain('<li id="fn-3"><p>In a table. <a href="#fnref-3"');
  });

  it('keeps pictures from the package, once each, and marks external and unsafe ones', async () => {
    const { result } = await convert({
      relationships: [
        { id: 'rIdPng', type: 'image', target: 'media/image1.png' },
        { id: 'rIdOther', type: 'image', target: '/word/media/image2.png' },
        { id: 'rIdEmf', type: 'image', target: 'media/image3.emf' },
        { id: 'rIdMissing', type: 'image', target: 'media/nothing.png' },
        { id: 'rIdFar', type: 'image', target: 'https://tracker.example/p.png', external: true },
      ],
      body: paragraph([
        drawing('rIdPng', { descr: 'A dot', title: 'Ignored title' }),
        drawing('rIdPng', { descr: ' ', title: 'Title as alt' }),
        drawing('rIdOther'),
        drawing('rIdEmf', { descr: 'Metafile' }),
        drawing('rIdMissing', { descr: 'Missing' }),
        drawing('rIdFar', { descr: 'Far away' }),
        drawing('rIdPng').replace('r:embed=', 'r:link='),
        '<w:r><w:pict><v:shape><v:imagedata r:id="rIdOther" o:title="VML"/></v:shape></w:pict></w:r>',
      ]),
      files: {
        'word/media/image1.png': PNG,
        'word/media/image2.png': OTHER_PNG,
        'word/media/image3.emf': EMF_HEADER,
      },
    });
    const [dot, other] = result.images;
    expect(result.images.map((image) => image.contentType)).toEqual(['image/png', 'image/png']);
    expect(result.html.replace(/ id="b-[^"]+"/g, '')).toBe(
      `<p><img src="/media/${dot?.id}" alt="A dot"><img src="/media/${dot?.id}" alt="Title as alt">` +
        `<img src="/media/${other?.id}" alt="">` +
        // The metafile is marked where it stood, with its alt text, and named in the report.
        '<span class="missing-picture" role="img" aria-label="Picture not shown (its format cannot be shown in a browser): Metafile"></span>' +
        // So is the picture outside the file (never fetched); an r:link that is not external is left out.
        '<span class="missing-picture" role="img" aria-label="Picture not loaded (it is on another website): Far away"></span>' +
        `</p>\n<p><img src="/media/${other?.id}" alt=""></p>\n`,
    );
    expect(result.report.notes).toEqual([
      '1 picture in EMF format could not be shown. Save it as PNG or JPEG in your document and upload again.',
      '1 picture on another website was not loaded: we never fetch pictures from elsewhere. Put it into the document itself to show it.',
    ]);
  });
});

describe('the DOCX reader hands to mammoth', () => {
  it('documents with an imported chunk (w:altChunk) or symbol-font characters', async () => {
    expect(await fallbackReason({ body: '<w:altChunk r:id="rIdHtml"/>' + paragraph('Text') })).toBe(
      'w:altChunk',
    );
    expect(
      await fallbackReason({
        body: paragraph(['<w:r><w:sym w:font="Wingdings" w:char="F04A"/></w:r>']),
      }),
    ).toBe('w:sym');
  });

  it('Strict OOXML and names in unusual namespaces', async () => {
    const strict = unzip(buildWordDocx({ body: paragraph('Text') }));
    strict['word/document.xml'] = new TextEncoder().encode(
      '<w:document xmlns:w="http://purl.oclc.org/ooxml/wordprocessingml/main"><w:body><w:p><w:r><w:t>Strict</w:t></w:r></w:p></w:body></w:document>',
    );
    expect(await fallbackReason(buildZip(strict))).toBe('Strict OOXML');
    const renamed = unzip(buildWordDocx({ body: paragraph('Text') }));
    renamed['word/document.xml'] = new TextEncoder().encode(
      '<x:document xmlns:x="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><x:body><x:p><x:r><x:t>Renamed</x:t></x:r></x:p></x:body></x:document>',
    );
    const conversion = await convert(buildZip(renamed));
    expect(conversion.reader).toBe('mammoth');
    expect(conversion.result.html).toContain('Renamed');
  });

  it('links inside links, which an HTML parser would take apart', async () => {
    const body = paragraph([
      field(' HYPERLINK "https://example.com/" ', [
        '<w:hyperlink r:id="rIdWeb"><w:r><w:t>inner</w:t></w:r></w:hyperlink>',
      ]),
    ]);
    const relationships = [
      { id: 'rIdWeb', type: 'hyperlink', target: 'https://example.org/', external: true },
    ];
    expect(await fallbackReason({ body, relationships })).toBe('link inside a link');
  });

  it('damaged XML, which mammoth refuses with the usual message', async () => {
    const entries = unzip(buildWordDocx({ body: paragraph('Text') }));
    entries['word/document.xml'] = new TextEncoder().encode('<w:document><w:body><w:p>');
    const error = await convert(buildZip(entries)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConversionError);
    expect((error as ConversionError).code).toBe('corrupt');
    expect((error as ConversionError).message).toMatch(/^The DOCX file could not be read/);
  });
});

describe('the DOCX reader refuses', () => {
  it('XML parts too large to parse safely, before parsing them', async () => {
    const entries = unzip(buildWordDocx({ body: paragraph('Text') }));
    // Stored, not deflated: a zip bomb would be refused earlier, by the archive checks.
    entries['word/document.xml'] = new TextEncoder().encode(
      `<w:document><w:body><w:p><w:r><w:t>${'x'.repeat(33 * 1024 * 1024)}</w:t></w:r></w:p></w:body></w:document>`,
    );
    const error = await convert(buildZip(entries, 0)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConversionError);
    expect((error as ConversionError).code).toBe('too_large');
  });
});
