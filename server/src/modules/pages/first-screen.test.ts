import { describe, expect, it } from 'vitest';
import {
  leadingBlocks,
  readerFirstScreen,
  startAfterFirstPaint,
  withFirstScreen,
} from './first-screen.ts';

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

  it('starts the app after the first screen’s frame: its entry and module preloads handed to the loader', () => {
    const built = [
      '<html><head><meta charset="utf-8">',
      '<link rel="preload" href="/assets/literata.woff2" as="font" type="font/woff2" crossorigin>',
      '<script src="/static/theme.js"></script>',
      '<script type="module" crossorigin src="/assets/index-abc.js"></script>',
      '<link rel="modulepreload" crossorigin href="/assets/react-1.js">',
      '<link rel="stylesheet" crossorigin href="/assets/index-1.css">',
      '<link rel="modulepreload" href="/assets/reader-page-2.js">',
      '</head><body><div id="root"></div>',
      '<script type="module" src="/not-in-the-head.js"></script></body></html>',
    ].join('\n');
    const out = startAfterFirstPaint(built);
    const head = out.slice(0, out.indexOf('</head>'));
    expect(head).not.toContain('type="module"');
    expect(head).not.toContain('modulepreload');
    expect(head).toContain(
      '<script src="/static/after-paint.js" data-entry="/assets/index-abc.js" ' +
        'data-preloads="/assets/react-1.js /assets/reader-page-2.js" defer></script>',
    );
    // What the first paint needs stays, in its place; the body is untouched.
    expect(head).toContain('<link rel="preload" href="/assets/literata.woff2"');
    expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/index-1.css">');
    expect(head.indexOf('theme.js')).toBeLessThan(head.indexOf('after-paint.js'));
    expect(out.slice(out.indexOf('</head>'))).toBe(built.slice(built.indexOf('</head>')));
    // Without a built app (no entry script), nothing changes.
    const bare = '<html><head><title>x</title></head><body></body></html>';
    expect(startAfterFirstPaint(bare)).toBe(bare);
  });
});
