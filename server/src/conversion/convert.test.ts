import mammoth from 'mammoth';
import { describe, expect, it } from 'vitest';
import { convertDocument, type ConversionResult, type SourceFormat } from './index.ts';
import {
  assertSafeHtml,
  buildDocx,
  docxParagraph,
  readFixture,
  readManifest,
  utf8,
} from './test-factories.ts';

const manifest = readManifest();
const count = (html: string, pattern: RegExp) => html.match(pattern)?.length ?? 0;

describe.each<SourceFormat>(['docx', 'odt', 'rtf', 'html', 'md', 'txt'])(
  'the %s fixture',
  (format) => {
    let converted: Promise<ConversionResult> | undefined;
    const result = () => (converted ??= convertDocument(readFixture(format), format));

    it('keeps the headings, as the table of contents', async () => {
      const { toc, html } = await result();
      const expected = manifest.headings.map((heading, i) =>
        // The text file can only shout its title.
        format === 'txt' && i === 0 ? { ...heading, text: heading.text.toUpperCase() } : heading,
      );
      expect(toc.map(({ level, text }) => ({ level, text }))).toEqual(expected);
      for (const entry of toc) expect(html).toContain(`<h${entry.level} id="${entry.id}">`);
    });

    it('finds the title', async () => {
      const { title } = await result();
      expect(title?.toLowerCase()).toBe(manifest.title.toLowerCase());
    });

    it('keeps the scene breaks', async () => {
      const { html } = await result();
      expect(count(html, /<hr id="b-[0-9a-f]{10}-\d+" class="scene-break">/g)).toBe(
        manifest.sceneBreaks,
      );
    });

    it('counts the words', async () => {
      const { words } = await result();
      // The text file spells its footnote out as "[1]" and "Notes": three words more.
      expect(words).toBe(format === 'txt' ? manifest.words + 3 : manifest.words);
    });

    it('gives every top-level block a stable id, and nothing outside the allow-list', async () => {
      const { html } = await result();
      assertSafeHtml(html);
      const blocks = html.split('\n').filter((line) => line !== '' && !line.startsWith('<section'));
      for (const block of blocks)
        expect(block).toMatch(/^<(p|h[1-3]|hr|ul|ol|blockquote|table) id="b-[0-9a-f]{10}-\d+"/);
      const again = await convertDocument(readFixture(format), format);
      expect(again.html).toBe(html);
    });

    if (format === 'txt') return;

    it('keeps italics and bold', async () => {
      const { html } = await result();
      expect(count(html, /<em>/g)).toBe(manifest.emphasis);
      expect(count(html, /<strong>/g)).toBe(manifest.strong);
    });

    it('keeps the footnote, with links both ways', async () => {
      const { html } = await result();
      expect(html).toContain('<sup><a href="#fn-1" id="fnref-1" class="footnote-ref">1</a></sup>');
      expect(html).toMatch(
        new RegExp(
          `<section id="footnotes" class="footnotes"><ol><li id="fn-1"><p>${escapeRegExp(manifest.footnote)} <a href="#fnref-1" class="footnote-back"`,
        ),
      );
    });

    it('keeps the table', async () => {
      const { html } = await result();
      expect(html).toMatch(
        new RegExp(`<table id="b-[0-9a-f]{10}-\\d+">.*<td>${manifest.tableCell}</td>`),
      );
    });

    it('extracts the image, stored under its content hash', async () => {
      const { html, images } = await result();
      expect(images).toHaveLength(1);
      const [image] = images;
      expect(image?.contentType).toBe('image/png');
      expect(image?.id).toMatch(/^[0-9a-f]{64}$/);
      expect(html).toContain(`<img src="/media/${image?.id}"`);
    });
  },
);

describe('DOCX specifics', () => {
  it('keeps italics from the Emphasis character style, which mammoth alone drops', async () => {
    const docx = readFixture('docx');
    const raw = await mammoth.convertToHtml({ buffer: Buffer.from(docx) });
    const ours = await convertDocument(docx, 'docx');
    expect(count(raw.value, /<em>/g)).toBeLessThan(manifest.emphasis);
    expect(count(ours.html, /<em>/g)).toBe(manifest.emphasis);
  });

  it('uses the given image URLs', async () => {
    const result = await convertDocument(readFixture('docx'), 'docx', {
      imageUrl: (id) => `https://cdn.example/m/${id}.png`,
    });
    expect(result.html).toContain(`<img src="https://cdn.example/m/${result.images[0]?.id}.png"`);
  });

  it('lets no script or dangerous link through', async () => {
    const hostile = buildDocx(
      [
        docxParagraph('<script>alert(1)</script>'),
        docxParagraph('<img src=x onerror=alert(1)>'),
        '<w:p><w:hyperlink r:id="rIdJs"><w:r><w:t>js link</w:t></w:r></w:hyperlink></w:p>',
        '<w:p><w:hyperlink r:id="rIdData"><w:r><w:t>data link</w:t></w:r></w:hyperlink></w:p>',
        '<w:p><w:hyperlink r:id="rIdOk"><w:r><w:t>good link</w:t></w:r></w:hyperlink></w:p>',
      ].join(''),
      {
        rIdJs: 'javascript:alert(document.cookie)',
        rIdData: 'data:text/html,<script>alert(1)</script>',
        rIdOk: 'https://example.com/',
      },
    );
    const { html } = await convertDocument(hostile, 'docx');
    assertSafeHtml(html);
    expect(html).not.toMatch(/<script|<img|javascript:|data:/i);
    expect(html).toContain('&#x3C;script>alert(1)&#x3C;/script>');
    expect(html).toContain('js link');
    expect(html).toContain(
      '<a href="https://example.com/" rel="nofollow noopener noreferrer">good link</a>',
    );
  });

  it('makes the Title style the title and an h1', async () => {
    const { title, toc } = await convertDocument(
      buildDocx(
        docxParagraph('Foreword', 'Heading1') +
          docxParagraph('My Book', 'Title') +
          docxParagraph('Text.'),
      ),
      'docx',
    );
    expect(title).toBe('My Book');
    expect(toc.map((entry) => entry.text)).toEqual(['Foreword', 'My Book']);
  });
});

describe('Markdown specifics', () => {
  it('sends raw HTML through the allow-list and refuses dangerous links', async () => {
    const { html } = await convertDocument(
      utf8(
        [
          '# Chapter 1',
          '<script>alert(1)</script>',
          '<img src=x onerror=alert(1)>',
          '<iframe src="https://evil.example"></iframe>',
          '[js](javascript:alert(1)) [vb](vbscript:x) [data](data:text/html,x) [ok](https://example.com)',
          '![pixel](https://tracker.example/p.gif) ![inline](data:image/png;base64,iVBORw0KGgo=)',
          '<svg onload=alert(1)>',
        ].join('\n\n'),
      ),
      'md',
    );
    assertSafeHtml(html);
    expect(html).not.toMatch(
      /<script|<iframe|<svg|onerror|href="(?:javascript|vbscript|data):|tracker\.example/i,
    );
    // The remote picture and the one named "x" are marked, never fetched; the data: one is kept.
    expect(html.match(/<img /g)).toHaveLength(1);
    expect(html).toContain('aria-label="Picture not loaded (it is on another website): pixel"');
    expect(html).toContain('aria-label="Picture not included in the file"');
    expect(html).toContain(
      '<a href="https://example.com/" rel="nofollow noopener noreferrer">ok</a>',
    );
  });

  it('takes the title from front matter', async () => {
    const { title, html } = await convertDocument(
      utf8('---\ntitle: "Salt Road"\nauthor: A\n---\n\nText.\n'),
      'md',
    );
    expect(title).toBe('Salt Road');
    expect(html).not.toContain('author');
  });
});

describe('several conversions at once', () => {
  it('do not disturb each other', async () => {
    const [odt, rtf, odtAgain] = await Promise.all([
      convertDocument(readFixture('odt'), 'odt'),
      convertDocument(readFixture('rtf'), 'rtf'),
      convertDocument(readFixture('odt'), 'odt'),
    ]);
    expect(odt.words).toBe(manifest.words);
    expect(rtf.words).toBe(manifest.words);
    expect(odtAgain.html).toBe(odt.html);
  });
});

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
