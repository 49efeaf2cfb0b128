// Formulas are kept (issue 10 item 4): Word's equations (OMML), ODT formula objects and MathML in
// HTML and Markdown become MathML Core in the reader, through a strict allow-list.
import { describe, expect, it } from 'vitest';
import { convertDocxWithReport } from './docx.ts';
import { buildWordDocx, paragraph, run } from './docx-test-builder.ts';
import { defaultImageUrl } from './images.ts';
import { convertDocument, type ConversionResult, type SourceFormat } from './index.ts';
import { assertSafeHtml, buildZip, utf8 } from './test-factories.ts';

const withoutIds = (html: string) => html.replace(/ id="b-[0-9a-f]{10}-\d+"/g, '').trim();

async function convert(bytes: Uint8Array, format: SourceFormat): Promise<ConversionResult> {
  const result = await convertDocument(bytes, format);
  assertSafeHtml(result.html);
  return result;
}

const mr = (value: string, properties = '') =>
  `<m:r>${properties ? `<m:rPr>${properties}</m:rPr>` : ''}<m:t>${value}</m:t></m:r>`;

describe('Word equations (OMML) become MathML, read by our own DOCX reader', () => {
  it('keeps fractions, scripts, roots, sums, brackets, functions and matrices', async () => {
    const formula =
      '<m:oMathPara><m:oMath>' +
      `<m:f><m:num>${mr('a+1')}</m:num><m:den>${mr('2')}</m:den></m:f>` +
      `<m:sSup><m:e>${mr('x')}</m:e><m:sup>${mr('2')}</m:sup></m:sSup>` +
      `<m:rad><m:radPr><m:degHide m:val="1"/></m:radPr><m:deg/><m:e>${mr('y')}</m:e></m:rad>` +
      `<m:nary><m:naryPr><m:chr m:val="∑"/><m:limLoc m:val="undOvr"/></m:naryPr><m:sub>${mr('i=1')}</m:sub><m:sup>${mr('n')}</m:sup><m:e>${mr('i')}</m:e></m:nary>` +
      `<m:d><m:dPr><m:begChr m:val="["/><m:endChr m:val="]"/></m:dPr><m:e>${mr('p')}</m:e><m:e>${mr('q')}</m:e></m:d>` +
      `<m:func><m:fName>${mr('sin', '<m:sty m:val="p"/>')}</m:fName><m:e>${mr('θ')}</m:e></m:func>` +
      `<m:m><m:mr><m:e>${mr('1')}</m:e><m:e>${mr('0')}</m:e></m:mr><m:mr><m:e>${mr('0')}</m:e><m:e>${mr('1')}</m:e></m:mr></m:m>` +
      '</m:oMath></m:oMathPara>';
    const conversion = await convertDocxWithReport(
      buildWordDocx({
        body:
          paragraph([
            run('Where '),
            `<m:oMath>${mr('E=m')}<m:sSup><m:e>${mr('c')}</m:e><m:sup>${mr('2')}</m:sup></m:sSup></m:oMath>`,
            run(' holds:'),
          ]) + `<w:p>${formula}</w:p>`,
      }),
      defaultImageUrl,
    );
    expect(conversion.reader).toBe('own');
    const { html, report } = conversion.result;
    assertSafeHtml(html);
    expect(withoutIds(html)).toBe(
      [
        '<p>Where <math><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></math> holds:</p>',
        '<p><math display="block">' +
          '<mfrac><mrow><mi>a</mi><mo>+</mo><mn>1</mn></mrow><mn>2</mn></mfrac>' +
          '<msup><mi>x</mi><mn>2</mn></msup>' +
          '<msqrt><mi>y</mi></msqrt>' +
          '<mrow><munderover><mo largeop="true">∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></munderover><mi>i</mi></mrow>' +
          '<mrow><mo fence="true">[</mo><mi>p</mi><mo separator="true">|</mo><mi>q</mi><mo fence="true">]</mo></mrow>' +
          '<mrow><mi>sin</mi><mo>\u2061</mo><mi>θ</mi></mrow>' +
          '<mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>0</mn></mtd></mtr><mtr><mtd><mn>0</mn></mtd><mtd><mn>1</mn></mtd></mtr></mtable>' +
          '</math></p>',
      ].join('\n'),
    );
    expect(report.formulas).toBe(2);
  });

  it('does not refuse a document that is only a formula', async () => {
    const bytes = buildWordDocx({
      body: `<w:p><m:oMathPara><m:oMath>${mr('∞')}</m:oMath></m:oMathPara></w:p>`,
    });
    const result = await convert(bytes, 'docx');
    expect(withoutIds(result.html)).toBe('<p><math display="block"><mo>∞</mo></math></p>');
    expect(result.words).toBe(0);
    expect(result.report.formulas).toBe(1);
  });
});

describe('ODT formula objects become MathML', () => {
  const namespaces =
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
    'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"';
  const odt = (body: string, files: Record<string, string>) =>
    buildZip({
      mimetype: 'application/vnd.oasis.opendocument.text',
      'content.xml': `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${namespaces}><office:body><office:text>${body}</office:text></office:body></office:document-content>`,
      'META-INF/manifest.xml':
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/></manifest:manifest>',
      ...files,
    });
  // As LibreOffice Math writes a formula: MathML with its StarMath source as an annotation.
  const formula = `<?xml version="1.0" encoding="UTF-8"?>
<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">
 <semantics>
  <mrow>
   <msup><mi>a</mi><mn>2</mn></msup>
   <mo stretchy="false">+</mo>
   <msup><mi>b</mi><mn>2</mn></msup>
   <mo stretchy="false" href="javascript:alert(1)" onclick="alert(1)">=</mo>
   <msup><mi>c</mi><mn>2</mn></msup>
  </mrow>
  <annotation encoding="StarMath 5.0">a^2 + b^2 = c^2</annotation>
 </semantics>
</math>`;
  const frame = (object: string) =>
    `<text:p>Pythagoras: <draw:frame draw:name="Object1"><draw:object xlink:href="./${object}" xlink:type="simple"/><draw:image xlink:href="./ObjectReplacements/Object 1"/></draw:frame></text:p>`;

  it('reads the MathML of the object, not the picture beside it', async () => {
    const result = await convert(
      odt(frame('Object 1'), {
        'Object 1/content.xml': formula,
        'ObjectReplacements/Object 1': 'not a picture',
      }),
      'odt',
    );
    expect(withoutIds(result.html)).toBe(
      '<p>Pythagoras: <math display="block"><mrow><msup><mi>a</mi><mn>2</mn></msup><mo stretchy="false">+</mo>' +
        '<msup><mi>b</mi><mn>2</mn></msup><mo stretchy="false">=</mo><msup><mi>c</mi><mn>2</mn></msup></mrow></math></p>',
    );
    expect(result.report.formulas).toBe(1);
    expect(result.report.notes).toEqual([]);
  });

  it('leaves out an object that is missing or not MathML, and keeps the text', async () => {
    const result = await convert(
      odt(frame('Object 2') + frame('../escape'), { 'Object 2/content.xml': '<chart/>' }),
      'odt',
    );
    expect(result.html).not.toContain('<math');
    expect(result.html).toContain('Pythagoras:');
  });
});

describe('MathML in HTML and Markdown', () => {
  it('is kept in HTML, with MathML Core elements and attributes only', async () => {
    const result = await convert(
      utf8(
        '<p>Inline <math><mfrac><mi>a</mi><mi>b</mi></mfrac></math> and a block:</p>' +
          '<math display="block" href="https://evil.example" xlink:href="javascript:alert(1)" onclick="alert(1)" style="color:red" class="x" id="y" mathcolor="red">' +
          '<mrow><mi mathvariant="bold" onmouseover="alert(1)">x</mi><mo lspace="0.2em" rspace="url(javascript:1)">+</mo>' +
          '<mtext><img src=x onerror=alert(1)><script>alert(2)</script>text</mtext>' +
          '<maction actiontype="statusline"><mi>y</mi><mtext>javascript:alert(3)</mtext></maction>' +
          '<mfenced open="{" close="}"><mi>p</mi><mi>q</mi></mfenced>' +
          '<mglyph src="https://tracker.example/g.png"/>' +
          '<semantics><mi>z</mi><annotation-xml encoding="text/html"><a href="javascript:alert(4)">click</a><iframe src="https://evil.example"></iframe></annotation-xml></semantics>' +
          '</mrow></math>' +
          '<svg><math><mi>in svg</mi></math></svg>',
      ),
      'html',
    );
    expect(withoutIds(result.html)).toBe(
      '<p>Inline <math><mfrac><mi>a</mi><mi>b</mi></mfrac></math> and a block:</p>\n' +
        '<p><math display="block"><mrow><mi mathvariant="bold">x</mi><mo lspace="0.2em">+</mo>' +
        '<mtext>text</mtext><mi>y</mi>' +
        '<mrow><mo>{</mo><mi>p</mi><mo separator="true">,</mo><mi>q</mi><mo>}</mo></mrow>' +
        '<mi>z</mi></mrow></math></p>',
    );
    expect(result.html).not.toMatch(
      /href|onclick|onerror|onmouseover|style|javascript|evil|tracker|mathcolor|annotation|mglyph|in svg/,
    );
    expect(result.report.formulas).toBe(2);
  });

  it('is kept in Markdown (inline HTML goes through the same allow-list)', async () => {
    const result = await convert(
      utf8(
        '# Proof\n\nWe know <math><msup><mi>x</mi><mn>2</mn></msup><mo>≥</mo><mn>0</mn></math>.\n',
      ),
      'md',
    );
    expect(withoutIds(result.html)).toBe(
      '<h1>Proof</h1>\n<p>We know <math><msup><mi>x</mi><mn>2</mn></msup><mo>≥</mo><mn>0</mn></math>.</p>',
    );
  });

  it('a document that is only a formula is not refused as "no text"', async () => {
    const result = await convert(utf8('<math><mo>∑</mo></math>'), 'html');
    expect(result.report.formulas).toBe(1);
  });
});
