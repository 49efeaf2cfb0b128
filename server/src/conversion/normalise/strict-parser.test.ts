import mammoth from 'mammoth';
import MarkdownIt from 'markdown-it';
import markdownItFootnote from 'markdown-it-footnote';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../test-factories.ts';
import { normaliseHtml, parseHtml } from './index.ts';
import { parseStrictHtml } from './strict-parser.ts';

async function converterOutputs(): Promise<Record<string, string>> {
  return {
    mammoth: (await mammoth.convertToHtml({ buffer: Buffer.from(readFixture('docx')) })).value,
    'markdown-it': new MarkdownIt({ html: false })
      .use(markdownItFootnote)
      .render(new TextDecoder().decode(readFixture('md'))),
  };
}

describe('strict parser', () => {
  it('reads every converter’s output exactly as parse5 does', async () => {
    for (const [converter, html] of Object.entries(await converterOutputs())) {
      const strict = parseStrictHtml(html);
      expect(strict, converter).not.toBeNull();
      expect(normaliseHtml(strict!).html, converter).toBe(normaliseHtml(parseHtml(html)).html);
    }
  });

  it.each([
    ['a block inside a paragraph', '<p>a<div>b</div></p>'],
    ['misnested formatting', '<p><b>x<i>y</b></i></p>'],
    ['an unclosed element', '<p>text'],
    ['a list item outside a list', '<li>item</li>'],
    ['text directly in a table', '<table>loose<tr><td>x</td></tr></table>'],
    ['a cell without a row', '<table><td>x</td></table>'],
    ['a script', '<p>a</p><script>alert(1)</script>'],
    ['a comment', '<p>a</p><!-- note -->'],
    ['an unquoted attribute', '<a href=x>y</a>'],
    ['an unknown attribute', '<p onclick="x()">y</p>'],
    ['an upper-case tag', '<P>y</P>'],
    ['a named entity beyond the basic five', '<p>a&nbsp;b</p>'],
    ['a reference without a semicolon', '<p>a &amp b</p>'],
    ['a C1 numeric reference', '<p>&#150;</p>'],
    ['a link in a link', '<p><a href="#a">x<a href="#b">y</a></a></p>'],
  ])('gives up on %s', (_label, html) => {
    expect(parseStrictHtml(html)).toBeNull();
  });

  it('decodes character references', () => {
    const root = parseStrictHtml('<p title="&quot;q&quot;">&lt;a&gt; &amp; &#233;&#x2014;</p>');
    expect(root?.children[0]).toMatchObject({
      tagName: 'p',
      properties: { title: '"q"' },
      children: [{ type: 'text', value: '<a> & é—' }],
    });
  });
});
