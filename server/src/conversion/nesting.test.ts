import { describe, expect, it } from 'vitest';
import { ConversionError, convertDocument, type SourceFormat } from './index.ts';
import { MAX_MARKUP_NESTING } from './limits.ts';
import { markupDepth } from './nesting.ts';
import { utf8 } from './test-factories.ts';

const DEEP = 100_000;

/** Converts and returns the error, and how long it took. */
async function refusal(bytes: Uint8Array, format: SourceFormat) {
  const started = performance.now();
  const error = await convertDocument(bytes, format).then(
    () => null,
    (caught: unknown) => caught,
  );
  return { error, milliseconds: performance.now() - started };
}

describe('deeply nested markup (issue 19 item 4)', () => {
  it.each([
    ['div', '<div>', '</div>'],
    ['b', '<b>', '</b>'],
    ['blockquote', '<blockquote>', '</blockquote>'],
    ['unclosed span', '<span>', ''],
  ])('100,000 nested HTML %s elements are refused fast, saying why', async (_, open, close) => {
    const html = `<html><body>${open.repeat(DEEP)}deep text${close.repeat(DEEP)}</body></html>`;
    const { error, milliseconds } = await refusal(utf8(html), 'html');
    expect(error).toBeInstanceOf(ConversionError);
    expect((error as ConversionError).code).toBe('corrupt');
    expect((error as ConversionError).message).toBe(
      `The HTML file has elements nested more than ${MAX_MARKUP_NESTING} levels deep, which no manuscript needs: it is damaged or was made by a program. Open it in your editor, save it again (or as DOCX), and upload that file.`,
    );
    expect(milliseconds).toBeLessThan(1000);
  });

  it.each([
    ['block quotes', `${'>'.repeat(DEEP)} deep text\n`],
    ['spaced block quotes', `${'> '.repeat(DEEP)}deep text\n`],
    ['inline HTML', `Text ${'<span>'.repeat(DEEP)}deep${'</span>'.repeat(DEEP)}\n`],
    ['HTML blocks', `${'<div>\n'.repeat(DEEP)}\ndeep\n`],
    [
      'list items',
      `${Array.from({ length: 600 }, (_, i) => `${'  '.repeat(i)}- item`).join('\n')}\n`,
    ],
  ])('Markdown with 100,000 nested %s is refused fast, saying why', async (_, source) => {
    const { error, milliseconds } = await refusal(utf8(source), 'md');
    expect(error).toBeInstanceOf(ConversionError);
    expect((error as ConversionError).message).toMatch(
      /^The Markdown file has elements nested more than 512 levels deep/,
    );
    expect(milliseconds).toBeLessThan(1000);
  });

  it('keeps documents nested as deeply as real ones are', async () => {
    const nested = (depth: number) => `${'<div>'.repeat(depth)}text${'</div>'.repeat(depth)}`;
    const html = await convertDocument(utf8(`<p>${nested(200)}</p>`), 'html');
    expect(html.words).toBe(1);
    const quotes = await convertDocument(utf8(`${'> '.repeat(50)}quoted\n`), 'md');
    expect(quotes.html).toContain('quoted');
    // Autolinks look like tags to a scanner, but nest nothing.
    const links = '<https://example.com/a> and <someone@example.com>\n\n'.repeat(600);
    expect((await convertDocument(utf8(links), 'md')).words).toBeGreaterThan(600);
  });

  it('counts depth as a parser nests: end tags that may be left out, void elements, raw text', () => {
    expect(markupDepth('<p>a<p>b<p>c<li>d<li>e<td>f')).toBe(0);
    expect(markupDepth('<div><img><br><hr><input></div>')).toBe(1);
    expect(markupDepth('<div><span><b>x</b></span></div><div></div>')).toBe(3);
    expect(markupDepth('<script>"<div><div><div>"</script><div></div>')).toBe(1);
    expect(markupDepth('<!-- <div><div> --><i></i>')).toBe(1);
    expect(markupDepth('<div title="a>b"><svg/><em>x</em></div>')).toBe(2);
    // A stray end tag closes what it matches, and nothing when it matches nothing.
    expect(markupDepth('<div><em><b></em></b></div><div>')).toBe(3);
  });
});
