import { describe, expect, it } from 'vitest';
import { convertDocument, type ConversionResult } from './index.ts';
import { assertSafeHtml, buildZip } from './test-factories.ts';

const NAMESPACES = [
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"',
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"',
  'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"',
  'xmlns:xlink="http://www.w3.org/1999/xlink"',
  'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"',
].join(' ');

// Common styles as LibreOffice defines them (styles.xml).
const COMMON_STYLES = `
  <style:style style:name="Standard" style:family="paragraph"/>
  <style:style style:name="Heading" style:family="paragraph" style:parent-style-name="Standard"/>
  <style:style style:name="Heading_20_1" style:display-name="Heading 1" style:family="paragraph" style:parent-style-name="Heading" style:default-outline-level="1"><style:text-properties fo:font-weight="bold"/></style:style>
  <style:style style:name="Heading_20_2" style:display-name="Heading 2" style:family="paragraph" style:parent-style-name="Heading" style:default-outline-level="2"/>
  <style:style style:name="Title" style:family="paragraph" style:parent-style-name="Heading"><style:text-properties fo:font-weight="bold"/></style:style>
  <style:style style:name="Subtitle" style:family="paragraph" style:parent-style-name="Heading"/>
  <style:style style:name="Quotations" style:family="paragraph" style:parent-style-name="Standard"/>
  <style:style style:name="Horizontal_20_Line" style:display-name="Horizontal Line" style:family="paragraph"/>
  <style:style style:name="Chapter" style:family="paragraph" style:default-outline-level="3"/>
  <style:style style:name="Emphasis" style:family="text"/>
  <style:style style:name="Strong_20_Emphasis" style:display-name="Strong Emphasis" style:family="text"/>
  <style:style style:name="Slanted" style:family="text"><style:text-properties fo:font-style="italic"/></style:style>
  <text:list-style style:name="Numbering_20_123" style:display-name="Numbering 123">
    <text:list-level-style-number text:level="1" style:num-format="1"/>
    <text:list-level-style-number text:level="2" style:num-format="a"/>
  </text:list-style>
  <text:list-style style:name="List_20_1" style:display-name="List 1">
    <text:list-level-style-bullet text:level="1" text:bullet-char="•"/>
    <text:list-level-style-number text:level="2" style:num-format="1"/>
  </text:list-style>`;

// Automatic styles as LibreOffice writes them into content.xml.
const AUTOMATIC_STYLES = `
  <style:style style:name="T1" style:family="text" style:parent-style-name="Slanted"/>
  <style:style style:name="T2" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>
  <style:style style:name="T3" style:family="text"><style:text-properties style:text-position="super 58%"/></style:style>
  <style:style style:name="T4" style:family="text"><style:text-properties fo:font-style="normal"/></style:style>
  <style:style style:name="T5" style:family="text"><style:text-properties text:display="none"/></style:style>
  <style:style style:name="P1" style:family="paragraph" style:parent-style-name="Standard"><style:text-properties fo:font-style="italic"/></style:style>
  <style:style style:name="P2" style:family="paragraph" style:parent-style-name="Heading_20_1"/>
  <style:style style:name="P3" style:family="paragraph" style:parent-style-name="Quotations"/>`;

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

interface OdtParts {
  /** Extra entries, such as pictures. */
  files?: Record<string, string | Uint8Array>;
  /** Replaces content.xml as a whole. */
  contentXml?: string;
  manifestXml?: string;
}

/** A minimal ODT whose office:text holds the given markup. */
function buildOdt(body: string, parts: OdtParts = {}): Uint8Array {
  return buildZip({
    mimetype: 'application/vnd.oasis.opendocument.text',
    'content.xml':
      parts.contentXml ??
      `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NAMESPACES}><office:automatic-styles>${AUTOMATIC_STYLES}</office:automatic-styles><office:body><office:text>${body}</office:text></office:body></office:document-content>`,
    'styles.xml': `<?xml version="1.0" encoding="UTF-8"?><office:document-styles ${NAMESPACES}><office:styles>${COMMON_STYLES}</office:styles></office:document-styles>`,
    'META-INF/manifest.xml':
      parts.manifestXml ??
      '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/></manifest:manifest>',
    ...parts.files,
  });
}

const p = (content: string, style = 'Standard') =>
  `<text:p text:style-name="${style}">${content}</text:p>`;

async function convert(body: string, parts?: OdtParts): Promise<ConversionResult> {
  const result = await convertDocument(buildOdt(body, parts), 'odt');
  assertSafeHtml(result.html);
  return result;
}

/** The HTML without block ids, which only get in the way of comparing shapes. */
async function html(body: string, parts?: OdtParts): Promise<string> {
  return (await convert(body, parts)).html.replace(/ id="b-[0-9a-f]{10}-\d+"/g, '').trim();
}

describe('ODT reader', () => {
  it('follows style chains to italics and bold, and knows the Emphasis styles by name', async () => {
    expect(
      await html(
        p(
          'a <text:span text:style-name="T1">slanted</text:span> b <text:span text:style-name="T2">bold</text:span> c ' +
            '<text:span text:style-name="Emphasis">em</text:span> <text:span text:style-name="Strong_20_Emphasis">strong</text:span>',
        ),
      ),
    ).toBe(
      '<p>a <em>slanted</em> b <strong>bold</strong> c <em>em</em> <strong>strong</strong></p>',
    );
  });

  it('nests spans, and lets a span switch off the italics of its paragraph', async () => {
    expect(
      await html(
        p(
          '<text:span text:style-name="T1">one <text:span text:style-name="T2">two</text:span> three</text:span>' +
            'x<text:span text:style-name="T3">2</text:span>',
        ),
      ),
    ).toBe('<p><em>one <strong>two</strong> three</em>x<sup>2</sup></p>');
    expect(
      await html(p('all <text:span text:style-name="T4">but this</text:span> italic', 'P1')),
    ).toBe('<p><em>all </em>but this<em> italic</em></p>');
  });

  it('merges runs that spaces separate, and leaves hidden text out', async () => {
    expect(
      await html(
        p(
          '<text:span text:style-name="T1">a</text:span> <text:span text:style-name="Emphasis">b</text:span>' +
            '<text:span text:style-name="T5">secret</text:span>',
        ),
      ),
    ).toBe('<p><em>a b</em></p>');
  });

  it('makes headings from outline levels and from heading styles', async () => {
    const { toc, html: output } = await convert(
      '<text:h text:style-name="Heading_20_1" text:outline-level="1">One</text:h>' +
        '<text:h text:outline-level="2">Two</text:h>' +
        '<text:h text:outline-level="5">Five</text:h>' +
        p('Styled two', 'Heading_20_2') +
        p('Automatic one', 'P2') +
        p('Outline three', 'Chapter') +
        p('Body'),
    );
    expect(toc.map(({ level, text }) => [level, text])).toEqual([
      [1, 'One'],
      [2, 'Two'],
      [3, 'Five'],
      [2, 'Styled two'],
      [1, 'Automatic one'],
      [3, 'Outline three'],
    ]);
    // The bold of the heading style is not markup.
    expect(output).not.toContain('<strong>');
  });

  it('takes the Title paragraph as the title; a Subtitle stays a paragraph', async () => {
    const {
      title,
      toc,
      html: output,
    } = await convert(
      p('Foreword', 'Heading_20_1') + p('My Book', 'Title') + p('A novel', 'Subtitle') + p('Text.'),
    );
    expect(title).toBe('My Book');
    expect(toc.map((entry) => entry.text)).toEqual(['Foreword', 'My Book']);
    expect(output).toMatch(/<h1 id="[^"]+">My Book<\/h1>\n<p id="[^"]+">A novel<\/p>/);
  });

  it('puts consecutive Quotations paragraphs in one block quote', async () => {
    expect(
      await html(p('Before.') + p('First.', 'Quotations') + p('Second.', 'P3') + p('After.')),
    ).toBe('<p>Before.</p>\n<blockquote><p>First.</p><p>Second.</p></blockquote>\n<p>After.</p>');
  });

  it('makes scene breaks of "* * *" paragraphs and of the Horizontal Line style', async () => {
    expect(
      await html(
        p('One.') + p('* * *', 'P1') + p('Two.') + p('', 'Horizontal_20_Line') + p('Three.'),
      ),
    ).toBe(
      '<p>One.</p>\n<hr class="scene-break">\n<p>Two.</p>\n<hr class="scene-break">\n<p>Three.</p>',
    );
  });

  it('reads bullet, numbered and nested lists', async () => {
    const item = (content: string) => `<text:list-item>${content}</text:list-item>`;
    expect(
      await html(
        `<text:list text:style-name="List_20_1">${item(p('Apple'))}${item(
          `<text:list>${item(p('Inner'))}</text:list>`,
        )}${item(p('Pear'))}</text:list>` +
          `<text:list text:style-name="Numbering_20_123">${item(p('First'))}${item(p('Second'))}</text:list>`,
      ),
    ).toBe(
      '<ul><li><p>Apple</p><ol><li>Inner</li></ol></li><li>Pear</li></ul>\n<ol><li>First</li><li>Second</li></ol>',
    );
  });

  it('goes on counting where a continued list left off', async () => {
    const list = (items: string[], attributes = '') =>
      `<text:list text:style-name="Numbering_20_123"${attributes}>${items
        .map((item) => `<text:list-item>${p(item)}</text:list-item>`)
        .join('')}</text:list>`;
    expect(
      await html(
        list(['One', 'Two']) + p('Between.') + list(['Three'], ' text:continue-numbering="true"'),
      ),
    ).toBe('<ol><li>One</li><li>Two</li></ol>\n<p>Between.</p>\n<ol start="3"><li>Three</li></ol>');
  });

  it('takes headings out of numbered lists, so that they stay in the table of contents', async () => {
    const { toc, html: output } = await convert(
      `<text:list text:style-name="Numbering_20_123"><text:list-item><text:h text:outline-level="1">Chapter</text:h></text:list-item>` +
        `<text:list-item>${p('Point')}</text:list-item></text:list>`,
    );
    expect(toc.map((entry) => entry.text)).toEqual(['Chapter']);
    expect(output).toMatch(
      /^<h1 [^>]+>Chapter<\/h1>\n<ol id="[^"]+" start="2"><li>Point<\/li><\/ol>/,
    );
  });

  it('reads tables, with header rows', async () => {
    const cell = (text: string, extra = '') =>
      `<table:table-cell${extra}>${p(text)}</table:table-cell>`;
    expect(
      await html(
        '<table:table table:name="T"><table:table-column table:number-columns-repeated="2"/>' +
          `<table:table-header-rows><table:table-row>${cell('Tide')}${cell('Time')}</table:table-row></table:table-header-rows>` +
          `<table:table-row>${cell('High', ' table:number-columns-spanned="2"')}<table:covered-table-cell/></table:table-row>` +
          '</table:table>',
      ),
    ).toBe(
      '<table><thead><tr><th>Tide</th><th>Time</th></tr></thead><tbody><tr><td colspan="2">High</td></tr></tbody></table>',
    );
  });

  it('turns notes into footnotes that link both ways', async () => {
    const { html: output, words } = await convert(
      p(
        'Text.<text:note text:id="ftn1" text:note-class="footnote"><text:note-citation>1</text:note-citation>' +
          `<text:note-body>${p('The note.', 'Footnote')}</text:note-body></text:note> More.`,
      ),
    );
    expect(output).toContain(
      'Text.<sup><a href="#fn-1" id="fnref-1" class="footnote-ref">1</a></sup> More.',
    );
    expect(output).toContain(
      '<section id="footnotes" class="footnotes"><ol><li id="fn-1"><p>The note. <a href="#fnref-1" class="footnote-back"',
    );
    expect(words).toBe(4);
  });

  it('keeps images from the package and drops external, foreign and unsafe ones', async () => {
    const frame = (href: string, title = '') =>
      p(
        `<draw:frame draw:name="x"><draw:image xlink:href="${href}" xlink:type="simple"/>${title}</draw:frame>`,
      );
    const { html: output, images } = await convert(
      p('Pictures:') +
        frame('Pictures/map.png', '<svg:title>A map</svg:title>') +
        frame('Pictures/map.png') +
        frame('http://tracker.example/pixel.png') +
        frame('file:///etc/passwd') +
        frame('../outside.png') +
        frame('Pictures/drawing.svg'),
      {
        files: {
          'Pictures/map.png': PNG,
          'Pictures/drawing.svg':
            '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        },
      },
    );
    expect(images).toHaveLength(1);
    expect(images[0]?.contentType).toBe('image/png');
    expect(output.match(/<img /g)).toHaveLength(2);
    expect(output).toContain(`<img src="/media/${images[0]?.id}" alt="A map">`);
    expect(output).not.toMatch(/tracker|passwd|outside|svg/);
  });

  it('puts a captioned image (a text frame) after its paragraph', async () => {
    const { html: output, images } = await convert(
      p(
        'Before.<draw:frame draw:name="Frame1"><draw:text-box>' +
          p(
            '<draw:frame draw:name="Image1"><draw:image xlink:href="Pictures/map.png"/></draw:frame>Figure 1: the map',
          ) +
          '</draw:text-box></draw:frame>',
      ),
      { files: { 'Pictures/map.png': PNG } },
    );
    expect(output).toMatch(
      new RegExp(
        `^<p [^>]+>Before.</p>\n<p [^>]+><img src="/media/${images[0]?.id}" alt="">Figure 1: the map</p>`,
      ),
    );
  });

  it('keeps safe links and unwraps dangerous ones', async () => {
    expect(
      await html(
        p(
          '<text:a xlink:href="javascript:alert(1)">bad</text:a> <text:a xlink:href="https://example.com/">good</text:a> ' +
            '<text:a xlink:href="#bookmark">inside</text:a>',
        ),
      ),
    ).toBe(
      '<p>bad <a href="https://example.com/" rel="nofollow noopener noreferrer">good</a> inside</p>',
    );
  });

  it('reads spaces, tabs and line breaks', async () => {
    expect(
      await html(
        p(
          'a<text:s/>b<text:s text:c="3"/>c<text:tab/>d<text:line-break/>e<text:soft-page-break/>f',
        ),
      ),
    ).toBe('<p>a b c d<br>ef</p>');
  });

  it('shows the current text of tracked changes, without deletions or comments', async () => {
    const output = await html(
      '<text:tracked-changes><text:changed-region text:id="c1"><text:deletion><text:p>Deleted words.</text:p></text:deletion></text:changed-region></text:tracked-changes>' +
        p(
          'Kept<text:change text:change-id="c1"/> text<office:annotation><text:p>A comment.</text:p></office:annotation> here.' +
            '<text:change-start text:change-id="c2"/> Inserted.<text:change-end text:change-id="c2"/>',
        ),
    );
    expect(output).toBe('<p>Kept text here. Inserted.</p>');
  });

  it('leaves the generated table of contents out', async () => {
    const { toc, html: output } = await convert(
      '<text:table-of-content text:name="TOC"><text:table-of-content-source text:outline-level="3"/>' +
        `<text:index-body><text:index-title>${p('Contents')}</text:index-title>${p('Chapter 1\t1')}</text:index-body></text:table-of-content>` +
        '<text:h text:outline-level="1">Chapter 1</text:h>' +
        p('Text.'),
    );
    expect(toc.map((entry) => entry.text)).toEqual(['Chapter 1']);
    expect(output).not.toContain('Contents');
  });

  it('keeps markup-looking text as text', async () => {
    const { html: output } = await convert(
      p('&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(1)&gt; &#38; &#x263A;'),
    );
    expect(output).not.toMatch(/<script|<img/);
    expect(output).toContain(
      '&#x3C;script>alert(1)&#x3C;/script> &#x3C;img src=x onerror=alert(1)> &#x26; ☺',
    );
  });

  it('reads documents that use other namespace prefixes', async () => {
    const contentXml =
      '<?xml version="1.0"?><o:document-content xmlns:o="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:t="urn:oasis:names:tc:opendocument:xmlns:text:1.0">' +
      '<o:body><o:text><t:h t:outline-level="1">Head</t:h><t:p>Body <t:span t:style-name="Emphasis">text</t:span></t:p></o:text></o:body></o:document-content>';
    expect(await html('', { contentXml })).toBe('<h1>Head</h1>\n<p>Body <em>text</em></p>');
  });

  it('refuses a damaged content.xml with a helpful message', async () => {
    const error = await convertDocument(
      buildOdt('', {
        contentXml: '<office:document-content><text:p>broken</office:document-content>',
      }),
      'odt',
    ).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'corrupt',
      message: expect.stringContaining('The ODT file could not be read'),
    });
  });

  it('refuses absurdly deep nesting as damaged, before anything recurses over it', async () => {
    const deep = '<text:span>'.repeat(5000) + 'x' + '</text:span>'.repeat(5000);
    const error = await convertDocument(buildOdt(p(deep)), 'odt').catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'corrupt' });
  });

  it('refuses a password-protected document, whether its parts inflate or not', async () => {
    const manifestXml =
      '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="content.xml"><manifest:encryption-data manifest:checksum-type="SHA1/1K"/></manifest:file-entry></manifest:manifest>';
    const storedGarbage = buildOdt('', { contentXml: '\u0007\u00ff garbage', manifestXml });
    // Encrypted parts are deflated before they are encrypted: inflating them fails.
    const deflatedGarbage = buildOdt('', { contentXml: 'x'.repeat(5000), manifestXml });
    const dataStart = Buffer.from(deflatedGarbage).indexOf('content.xml') + 'content.xml'.length;
    deflatedGarbage.fill(0xff, dataStart, dataStart + 8);
    for (const odt of [storedGarbage, deflatedGarbage]) {
      const error = await convertDocument(odt, 'odt').catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'encrypted' });
    }
  });
});
