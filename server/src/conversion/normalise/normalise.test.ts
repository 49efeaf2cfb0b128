import { describe, expect, it } from 'vitest';
import { assertSafeHtml } from '../test-factories.ts';
import { normaliseHtml } from './index.ts';

const normalise = (html: string, images?: Map<string, string>) => normaliseHtml(html, { images });

/** Block ids in document order, with the text of each block. */
function blockIds(html: string): Array<[string, string]> {
  return [
    ...html.matchAll(
      /<(?:p|h[1-3]|hr|ul|ol|table|blockquote) id="(b-[0-9a-f]{10}-\d+)"[^>]*>(.*?)(?=<\/|$)/gm,
    ),
  ].map((match) => [match[1] ?? '', match[2] ?? '']);
}

describe('normaliser: allow-list', () => {
  it('keeps the allowed shape', () => {
    const { html } = normalise(
      '<h1>One</h1><h4>Deep</h4><h6>Deeper</h6><p><i>a</i> <b>b</b> <em>c</em> <strong>d</strong> x<sup>2</sup> H<sub>2</sub>O</p>' +
        '<ul><li>item</li></ul><ol start="3"><li>third</li></ol><blockquote><p>quoted</p></blockquote>' +
        '<table><thead><tr><th colspan="2">head</th></tr></thead><tbody><tr><td>a</td><td>b</td></tr></tbody></table>' +
        '<p>A <a href="https://example.com/x">link</a> and <a href="mailto:me@example.com">mail</a>.</p>',
    );
    expect(html).toContain('<h3 id=');
    expect(html).not.toMatch(/<h[4-6]/);
    expect(html).toContain(
      '<em>a</em> <strong>b</strong> <em>c</em> <strong>d</strong> x<sup>2</sup> H<sub>2</sub>O',
    );
    expect(html).toMatch(/<ol id="b-[0-9a-f]+-0" start="3">/);
    expect(html).toContain('<blockquote id=');
    expect(html).toContain('<th colspan="2">head</th>');
    expect(html).toContain(
      '<a href="https://example.com/x" rel="nofollow noopener noreferrer">link</a>',
    );
    expect(html).toContain(
      '<a href="mailto:me@example.com" rel="nofollow noopener noreferrer">mail</a>',
    );
  });

  it('turns rules and "* * *" paragraphs into scene breaks', () => {
    const { html } = normalise(
      '<p>a</p><hr><p>b</p><p>* * *</p><p>c</p><p>***</p><p>d</p><p>#</p><p>e</p><p> ⁂ </p><p>f</p><hr>',
    );
    expect(html.match(/<hr id="b-[0-9a-f]+-\d+" class="scene-break">/g)).toHaveLength(5);
    expect(html.trim()).toMatch(/<p id="b-[0-9a-f]+-0">f<\/p>$/); // trailing rule dropped
  });

  it('wraps loose text and unwraps div soup into paragraphs', () => {
    const { html } = normalise(
      '<div>first</div><div><span style="color:red">second</span></div>loose <i>text</i>',
    );
    expect(blockIds(html).map(([, text]) => text)).toEqual(['first', 'second', 'loose <em>text']);
  });
});

describe('normaliser: CSS italics and bold', () => {
  it('reads italics and bold given by classes (Google Docs) and inline styles', () => {
    const { html } = normalise(
      '<html><head><style>.c1{font-style:italic}.c2,.c9{font-weight:700}.c3{color:red}.c4{vertical-align:super}</style></head>' +
        '<body><p class="c3"><span class="c1">leaning</span> <span class="c2">heavy</span> <span class="c3">plain</span>' +
        ' <span style="font-style: italic; font-weight: bold">both</span> <span style="font-weight:400">normal</span>' +
        ' x<span class="c4">2</span></p></body></html>',
    );
    expect(html).toMatch(
      /<p id="b-[0-9a-f]+-0"><em>leaning<\/em> <strong>heavy<\/strong> plain <strong><em>both<\/em><\/strong> normal x<sup>2<\/sup><\/p>/,
    );
  });
});

describe('normaliser: hostile HTML', () => {
  const vectors = [
    '<script>alert(1)</script>',
    '<img src="x" onerror="alert(1)">',
    '<p onclick="alert(1)" style="background:url(javascript:alert(1))">click</p>',
    '<a href="javascript:alert(1)">js</a>',
    '<a href="JaVaScRiPt:alert(1)">js2</a>',
    '<a href="java\tscript:alert(1)">js3</a>',
    '<a href=" javascript:alert(1)">js4</a>',
    '<a href="vbscript:msgbox(1)">vb</a>',
    '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>',
    '<iframe src="https://evil.example"></iframe>',
    '<object data="x.swf"></object><embed src="x.swf">',
    '<svg onload="alert(1)"><script>alert(1)</script></svg>',
    '<math><mi xlink:href="javascript:alert(1)">m</mi></math>',
    '<style>body{display:none}</style>',
    '<form action="https://evil.example"><input name="q"><button>go</button></form>',
    '<img src="data:image/png;base64,iVBORw0KGgo=">',
    '<img src="file:///etc/passwd">',
    '<img src="https://tracker.example/pixel.gif">',
    '<meta http-equiv="refresh" content="0;url=https://evil.example">',
    '<base href="https://evil.example/">',
    '<link rel="stylesheet" href="https://evil.example/x.css">',
    '<template><script>alert(1)</script></template>',
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>">x</p></noscript>',
    '<details open ontoggle="alert(1)"><summary>s</summary></details>',
    '<p id="fn1" class="evil" data-x="1" aria-hidden="true">attributes</p>',
  ];

  it('lets no script, handler, frame, style or dangerous URL through', () => {
    const { html } = normalise(`<p>before</p>${vectors.join('\n')}<p>after</p>`);
    assertSafeHtml(html);
    expect(html).not.toMatch(
      /<script|<style|<iframe|<object|<embed|<svg|<form|<input|<button|<meta|<base|<link|<template/i,
    );
    // A formula stays, without the link (see mathml.test.ts for the MathML allow-list).
    expect(html).toContain('<math><mi>m</mi></math>');
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(html).not.toMatch(/javascript:|vbscript:|data:|file:/i);
    expect(html).not.toMatch(/tracker\.example|evil\.example/);
    expect(html).not.toContain('style=');
    expect(html).not.toMatch(/class="evil"|data-x|aria-hidden/);
    expect(html).toContain('before');
    expect(html).toContain('after');
  });

  it('keeps the text of unwrapped links', () => {
    const { html } = normalise('<p><a href="javascript:alert(1)">click me</a></p>');
    expect(html).toMatch(/<p id="b-[0-9a-f]+-0">click me<\/p>/);
  });

  it('keeps only images from our own store', () => {
    const images = new Map([['media/image1.png', '/media/abc123']]);
    const { html } = normalise(
      '<p><img src="media/image1.png" alt="Map"><img src="/media/abc123"><img src="other.png"></p>',
      images,
    );
    expect(html).toContain('<img src="/media/abc123" alt="Map">');
    expect(html.match(/<img/g)).toHaveLength(1);
  });
});

describe('normaliser: stable block ids', () => {
  const paragraphs = [
    'The first paragraph.',
    'The second paragraph.',
    'The third paragraph.',
    'The third paragraph.',
  ];
  const toHtml = (texts: string[]) =>
    `<h1>Chapter 1</h1>${texts.map((text) => `<p>${text}</p>`).join('')}`;

  it('derives ids from the text, with a counter for repeats', () => {
    const ids = blockIds(normalise(toHtml(paragraphs)).html);
    expect(ids).toHaveLength(5);
    expect(new Set(ids.map(([id]) => id)).size).toBe(5);
    expect(ids[3]?.[0].replace(/-0$/, '')).toBe(ids[4]?.[0].replace(/-1$/, ''));
    expect(normalise(toHtml(paragraphs)).html).toBe(normalise(toHtml(paragraphs)).html);
  });

  it('changes only the id of the edited paragraph', () => {
    const before = blockIds(normalise(toHtml(paragraphs)).html);
    const edited = [...paragraphs];
    edited[1] = 'The second paragraph, rewritten.';
    const after = blockIds(normalise(toHtml(edited)).html);
    expect(after.map(([id]) => id).filter((id, i) => id !== before[i]?.[0])).toEqual([
      after[2]?.[0],
    ]);
  });

  it('keeps later ids when a paragraph is inserted or a footnote added', () => {
    const before = blockIds(normalise(toHtml(paragraphs)).html).map(([id]) => id);
    const inserted = blockIds(normalise(toHtml(['New opening.', ...paragraphs])).html).map(
      ([id]) => id,
    );
    expect(inserted.slice(2)).toEqual(before.slice(1));
    const withNote = normalise(
      '<h1>Chapter 1</h1><p>The first paragraph.<a href="#n1" id="r1">1</a></p><p>The second paragraph.</p>' +
        '<p>The third paragraph.</p><p>The third paragraph.</p><ol><li id="n1">A note. <a href="#r1">back</a></li></ol>',
    );
    expect(blockIds(withNote.html).map(([id]) => id)).toEqual(before);
  });

  it('builds the table of contents from h1–h3 with the block ids', () => {
    const result = normalise('<h1>Part</h1><h2>Chapter</h2><h5>Scene</h5><p>Text.</p>');
    expect(result.toc.map((entry) => [entry.level, entry.text])).toEqual([
      [1, 'Part'],
      [2, 'Chapter'],
      [3, 'Scene'],
    ]);
    for (const entry of result.toc) expect(result.html).toContain(`id="${entry.id}"`);
  });
});

describe('normaliser: footnotes', () => {
  const shapes: Record<string, string> = {
    pandoc:
      '<p>Text.<a href="#fn1" class="footnote-ref" id="fnref1" role="doc-noteref"><sup>1</sup></a></p>' +
      '<section id="footnotes" class="footnotes footnotes-end-of-document" role="doc-endnotes"><hr /><ol>' +
      '<li id="fn1"><p>The note.<a href="#fnref1" class="footnote-back" role="doc-backlink">↩︎</a></p></li></ol></section>',
    mammoth:
      '<p>Text.<sup><a href="#footnote-1" id="footnote-ref-1">[1]</a></sup></p>' +
      '<ol><li id="footnote-1"><p> The note. <a href="#footnote-ref-1">↑</a></p></li></ol>',
    'markdown-it':
      '<p>Text.<sup class="footnote-ref"><a href="#fn1" id="fnref1">[1]</a></sup></p>' +
      '<hr class="footnotes-sep"><section class="footnotes"><ol class="footnotes-list">' +
      '<li id="fn1" class="footnote-item"><p>The note. <a href="#fnref1" class="footnote-backref">↩︎</a></p></li></ol></section>',
    libreoffice:
      '<p>Text.<a class="sdfootnoteanc" name="sdfootnote1anc" href="#sdfootnote1sym"><sup>1</sup></a></p>' +
      '<div id="sdfootnote1"><p class="sdfootnote"><a class="sdfootnotesym" name="sdfootnote1sym" href="#sdfootnote1anc">1</a>The note.</p></div>',
    'word web page':
      '<p>Text.<a style="mso-footnote-id:ftn1" href="#_ftn1" name="_ftnref1" title="">[1]</a></p>' +
      '<div style="mso-element:footnote-list"><div style="mso-element:footnote" id="ftn1"><p class="MsoFootnoteText">' +
      '<a style="mso-footnote-id:ftn1" href="#_ftnref1" name="_ftn1" title="">[1]</a> The note.</p></div></div>',
  };

  it.each(Object.entries(shapes))('turns %s footnotes into one shape', (_name, html) => {
    const result = normalise(html);
    expect(result.html).toMatch(
      /^<p id="b-[0-9a-f]+-0">Text\.<sup><a href="#fn-1" id="fnref-1" class="footnote-ref">1<\/a><\/sup><\/p>\n<section id="footnotes" class="footnotes"><ol><li id="fn-1"><p>The note\. <a href="#fnref-1" class="footnote-back" aria-label="Back to note 1 in the text">↩<\/a><\/p><\/li><\/ol><\/section>\n$/,
    );
    expect(result.words).toBe(3);
  });

  it('leaves ordinary in-page links as text', () => {
    const { html } = normalise(
      '<p><a href="#chapter-2">See chapter 2</a></p><h1 id="chapter-2">Chapter 2</h1>',
    );
    expect(html).not.toContain('href="#');
    expect(html).toContain('See chapter 2');
  });
});
