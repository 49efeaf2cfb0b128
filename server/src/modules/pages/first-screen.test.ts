import { describe, expect, it } from 'vitest';
import { leadingBlocks, readerFirstScreen, withFirstScreen } from './first-screen.ts';

const paragraph = (index: number) =>
  `<p id="b-${index}-0">Paragraph ${index}: the keeper climbed the stair and counted the <em>steps</em>.</p>`;
const book = [
  '<h1 id="b-title-0">Chapter One</h1>',
  '<table><tbody><tr><td>a</td><td>b</td></tr></tbody></table>',
  '<p id="b-img-0"><img src="/media/abc" alt="a > b"></p>',
  '<hr class="scene-break">',
  ...Array.from({ length: 200 }, (_, index) => paragraph(index)),
].join('\n');

describe('the reader first screen', () => {
  it('takes whole top-level blocks until it holds enough text, cut only between blocks', () => {
    const head = leadingBlocks(book, 500);
    expect(book.startsWith(head)).toBe(true);
    expect(head.endsWith('</p>')).toBe(true);
    // A table, an image whose alt holds ">" and a void <hr> do not end the count early.
    expect(head).toContain('<hr class="scene-break">');
    expect(head).toContain('Paragraph 3:');
    const text = head.replace(/<[^>]*>/g, '');
    expect(text.length).toBeGreaterThanOrEqual(500);
    expect(text.length).toBeLessThan(700);
    expect(leadingBlocks(book, 10_000_000)).toBe(book.slice(0, book.lastIndexOf('</p>') + 4));
  });

  it('is left out while a gate withholds the text, and escapes the title', () => {
    const view = {
      html: book,
      restricted_mature: false,
      restricted_moderation: false,
      manuscript: { title: 'Salt & <Stars>' },
    };
    const markup = readerFirstScreen(view);
    expect(markup).toContain('class="reader-box"><h1 id="b-title-0">Chapter One</h1>');
    expect(markup).toContain('Salt &#38; &#60;Stars&#62;');
    expect(readerFirstScreen({ ...view, restricted_mature: true })).toBe('');
    expect(readerFirstScreen({ ...view, restricted_moderation: true })).toBe('');
    expect(readerFirstScreen({ ...view, html: '' })).toBe('');
  });

  it('goes inside the app root of the shell', () => {
    const shell = '<body><div id="root"></div><!--PAGE_CONFIG--></body>';
    expect(withFirstScreen(shell, '<p>x</p>')).toBe(
      '<body><div id="root"><p>x</p></div><!--PAGE_CONFIG--></body>',
    );
    expect(withFirstScreen(shell, '')).toBe(shell);
  });
});
