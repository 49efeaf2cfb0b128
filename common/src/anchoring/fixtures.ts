// Manuscript HTML as the normaliser writes it (top-level blocks with ids, "\n" between them):
// the fixtures of the anchoring tests on the server, in the browser, and of the test here that
// both read them alike.

/** The reader-box scene of the browser's anchoring tests (repeated phrases, inline marks). */
export const HARBOUR_HTML = [
  '<h1 id="h-1">Chapter One</h1>',
  '<p id="p-1">The fog came in <em>before the boats</em> did, the way it always had.</p>',
  '<p id="p-2">Maren counted the lamps along the <strong>harbour</strong> wall.</p>',
  '<p id="p-3">The fog came in again, and the lamps went out one by one.</p>',
].join('\n');

/** The small manuscript of the server's comment tests. */
export const SCENE_HTML = [
  '<h1 id="b-title-0">Chapter One</h1>',
  '<p id="b-p1-0">The archivist kept the old charts in drawers that smelled of cedar and river damp.</p>',
  '<p id="b-p2-0">Maren had drawn the <em>Sallow bridges</em> three times, and each time the lamp-black had dried pale as milk.</p>',
  '<p id="b-p3-0">By night the streets had rearranged themselves again, as quietly as furniture in a dream.</p>',
  '',
].join('\n');

/** The paragraphs of the server's re-anchoring tests (drafts are built from them). */
export const PARAGRAPHS = [
  'The archivist kept the old charts in drawers that smelled of cedar and river damp.',
  'Maren had drawn the Sallow bridges three times, and each time the lamp-black had dried pale as milk.',
  'By night the streets had rearranged themselves again, as quietly as furniture in a dream.',
  'Nobody in the guild spoke of the Blank Quarter, and nobody in the Blank Quarter spoke at all.',
  'She folded the map twice and put it in her coat, next to the compass that never pointed north.',
];

/** A draft of paragraphs as normalised HTML (a heading first, block ids by position). */
export function draftHtml(paragraphs: readonly string[]): string {
  const blocks = paragraphs.map((text, index) => `<p id="p-${index}">${text}</p>`);
  return ['<h1 id="h-0">Chapter One</h1>', ...blocks, ''].join('\n');
}

/** Harder HTML: character references, nesting, lists, a table, emoji, odd whitespace. */
export const EDGE_HTML = [
  '<h2 id="e-1">Fish &amp; chips &lt;3 caf&#233; — “quoted”</h2>',
  '<p id="e-2">One <em>two <strong>three <a href="#x">four</a></strong></em> five.<br>Six&nbsp;seven  eight.</p>',
  '<ul id="e-3"><li>first <code>x &lt; y</code></li><li>second 🎉 emoji</li></ul>',
  '<table id="e-4"><tbody><tr><td>cell one</td><td>cell two</td></tr></tbody></table>',
  '<blockquote id="e-5"><p>Inner paragraph with a <sup>1</sup> footnote mark.</p></blockquote>',
  '<p>No id here, so no block.</p>',
  '<p id="e-6"></p>',
  '',
].join('\n');

/** Every fixture above, by name. */
export const ANCHORING_FIXTURES: Record<string, string> = {
  harbour: HARBOUR_HTML,
  scene: SCENE_HTML,
  draft: draftHtml(PARAGRAPHS),
  'draft with a new opening': draftHtml(['A brand new opening paragraph.', ...PARAGRAPHS]),
  'draft, edited': draftHtml([
    PARAGRAPHS[0]!,
    PARAGRAPHS[2]!.replace('as quietly as furniture', 'as quietly as the furniture'),
    `${PARAGRAPHS[3]} ${PARAGRAPHS[1]}`,
    PARAGRAPHS[4]!,
  ]),
  edge: EDGE_HTML,
};
