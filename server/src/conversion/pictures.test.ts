// Pictures are kept or marked, never silently dropped (issue 10 item 5), and the report says
// what could not be kept.
import { describe, expect, it } from 'vitest';
import { convertDocument, type ConversionResult, type SourceFormat } from './index.ts';
import { buildWordDocx, drawing, paragraph, run } from './docx-test-builder.ts';
import { assertSafeHtml, buildZip, utf8 } from './test-factories.ts';

const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const SVG_DATA = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>').toString('base64')}`;
// The start of an EMF file: record type 1 (EMR_HEADER), and " EMF" at byte 40.
const EMF = new Uint8Array(88);
EMF.set([1, 0, 0, 0]);
EMF.set([0x20, 0x45, 0x4d, 0x46], 40);

const withoutIds = (html: string) => html.replace(/ id="b-[0-9a-f]{10}-\d+"/g, '').trim();

async function convert(bytes: Uint8Array, format: SourceFormat): Promise<ConversionResult> {
  const result = await convertDocument(bytes, format);
  assertSafeHtml(result.html);
  return result;
}

describe('pictures in HTML', () => {
  it('stores data: pictures, marks remote, unsafe and missing ones, and reports them', async () => {
    const result = await convert(
      utf8(
        '<p>Text.</p>' +
          `<p><img src="data:image/png;base64,${PNG_BASE64}" alt="A dot"></p>` +
          `<p><img src="data:image/png;base64,${PNG_BASE64}" alt="The same dot"></p>` +
          '<p><img src="https://tracker.example/a.png" alt="Far"><img src="//tracker.example/b.png"></p>' +
          `<p><img src="${SVG_DATA}" alt="A vector"></p>` +
          '<p><img src="pictures/local.png" alt="Next to the file"></p>' +
          '<p><img src="data:image/png;base64,@@@" alt="Broken"></p>',
      ),
      'html',
    );
    expect(result.images).toHaveLength(1);
    const url = `/media/${result.images[0]?.id}`;
    expect(withoutIds(result.html)).toBe(
      [
        '<p>Text.</p>',
        `<p><img src="${url}" alt="A dot"></p>`,
        `<p><img src="${url}" alt="The same dot"></p>`,
        '<p><span class="missing-picture" role="img" aria-label="Picture not loaded (it is on another website): Far"></span>' +
          '<span class="missing-picture" role="img" aria-label="Picture not loaded (it is on another website)"></span></p>',
        '<p><span class="missing-picture" role="img" aria-label="Picture not shown (its format cannot be shown in a browser): A vector"></span></p>',
        '<p><span class="missing-picture" role="img" aria-label="Picture not included in the file: Next to the file"></span></p>',
        '<p><span class="missing-picture" role="img" aria-label="Picture not shown (its format cannot be shown in a browser): Broken"></span></p>',
      ].join('\n'),
    );
    expect(result.report).toMatchObject({ images: 1, words: 1 });
    expect(result.report.notes).toEqual([
      '1 picture in SVG format could not be shown. Save it as PNG or JPEG in your document and upload again.',
      '2 pictures on other websites were not loaded: we never fetch pictures from elsewhere. Put them into the document itself to show them.',
      '1 picture was linked from the file but not inside it, so it is marked with a placeholder.',
    ]);
  });

  it('keeps a data: picture in Markdown instead of showing its base64 as text', async () => {
    const result = await convert(
      utf8(`Text.\n\n![A dot](data:image/png;base64,${PNG_BASE64})\n`),
      'md',
    );
    expect(result.images).toHaveLength(1);
    expect(result.html).not.toContain('base64');
    expect(result.html).toContain(`<img src="/media/${result.images[0]?.id}" alt="A dot">`);
  });
});

describe('pictures in ODT', () => {
  it('marks an EMF picture and a remote one where they stood, and reports them', async () => {
    const namespaces =
      'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
      'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" ' +
      'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"';
    const frame = (href: string, title: string) =>
      `<draw:frame><draw:image xlink:href="${href}"/><svg:title>${title}</svg:title></draw:frame>`;
    const bytes = buildZip({
      mimetype: 'application/vnd.oasis.opendocument.text',
      'content.xml': `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${namespaces}><office:body><office:text><text:p>Map: ${frame('Pictures/map.emf', 'The old map')}${frame('https://tracker.example/x.png', 'Far away')}</text:p></office:text></office:body></office:document-content>`,
      'META-INF/manifest.xml':
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/></manifest:manifest>',
      'Pictures/map.emf': EMF,
    });
    const result = await convert(bytes, 'odt');
    expect(withoutIds(result.html)).toBe(
      '<p>Map: <span class="missing-picture" role="img" aria-label="Picture not shown (its format cannot be shown in a browser): The old map"></span>' +
        '<span class="missing-picture" role="img" aria-label="Picture not loaded (it is on another website): Far away"></span></p>',
    );
    expect(result.report.notes).toEqual([
      '1 picture in EMF format could not be shown. Save it as PNG or JPEG in your document and upload again.',
      '1 picture on another website was not loaded: we never fetch pictures from elsewhere. Put it into the document itself to show it.',
    ]);
  });
});

describe('pictures in RTF', () => {
  const rtf = (body: string) =>
    utf8(`{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Times New Roman;}}\\pard ${body}\\par}`);

  it('marks a WMF and an EMF picture where they stood instead of dropping them, and reports them', async () => {
    const wmf = '{\\pict\\wmetafile8\\picw100\\pich100 0100090000031000000000000000}';
    const emf = `{\\pict\\emfblip\\picw100\\pich100 ${Buffer.from(EMF).toString('hex')}}`;
    const result = await convert(rtf(`Map: ${wmf} and ${emf} end.`), 'rtf');
    expect(withoutIds(result.html)).toBe(
      '<p>Map: <span class="missing-picture" role="img" aria-label="Picture not shown (its format cannot be shown in a browser)"></span>' +
        ' and <span class="missing-picture" role="img" aria-label="Picture not shown (its format cannot be shown in a browser)"></span> end.</p>',
    );
    expect(result.report.notes).toEqual([
      '1 picture in WMF format could not be shown. Save it as PNG or JPEG in your document and upload again.',
      '1 picture in EMF format could not be shown. Save it as PNG or JPEG in your document and upload again.',
    ]);
  });

  it('shows the PNG of a picture that also has a metafile fallback, with no placeholder', async () => {
    const png = `{\\*\\shppict{\\pict\\pngblip ${Buffer.from(PNG_BASE64, 'base64').toString('hex')}}}`;
    const fallback = '{\\nonshppict{\\pict\\wmetafile8 0100090000031000000000000000}}';
    const result = await convert(rtf(`Dot: ${png}${fallback}.`), 'rtf');
    expect(result.images).toHaveLength(1);
    expect(result.html).not.toContain('missing-picture');
    expect(result.report.notes).toEqual([]);
  });
});

describe('pictures in DOCX linked from outside the file', () => {
  it('marks a remote and a local linked picture (r:link, TargetMode External), and reports them', async () => {
    const linked = (id: string, descr: string) =>
      drawing(id, { descr }).replace('r:embed=', 'r:link=');
    const bytes = buildWordDocx({
      body: paragraph([run('Pictures: '), linked('rIdFar', 'Far'), linked('rIdLocal', 'Mine')]),
      relationships: [
        {
          id: 'rIdFar',
          type: 'image',
          target: 'https://tracker.example/far.png',
          external: true,
        },
        { id: 'rIdLocal', type: 'image', target: 'file:///C:/Pictures/mine.png', external: true },
      ],
    });
    const result = await convert(bytes, 'docx');
    expect(withoutIds(result.html)).toBe(
      '<p>Pictures: <span class="missing-picture" role="img" aria-label="Picture not loaded (it is on another website): Far"></span>' +
        '<span class="missing-picture" role="img" aria-label="Picture not included in the file: Mine"></span></p>',
    );
    expect(result.report.notes).toEqual([
      '1 picture on another website was not loaded: we never fetch pictures from elsewhere. Put it into the document itself to show it.',
      '1 picture was linked from the file but not inside it, so it is marked with a placeholder.',
    ]);
  });

  it('marks a VML picture whose relationship is external', async () => {
    const bytes = buildWordDocx({
      body: paragraph([
        run('Old: '),
        '<w:r><w:pict><v:shape><v:imagedata r:id="rIdOld" o:title="Old"/></v:shape></w:pict></w:r>',
      ]),
      relationships: [
        { id: 'rIdOld', type: 'image', target: 'http://old.example/x.png', external: true },
      ],
    });
    const result = await convert(bytes, 'docx');
    // Where a VML shape's content goes is the reader's (mammoth's) business; that it is marked is ours.
    expect(withoutIds(result.html)).toContain(
      '<span class="missing-picture" role="img" aria-label="Picture not loaded (it is on another website)"></span>',
    );
    expect(result.report.notes).toHaveLength(1);
  });
});
