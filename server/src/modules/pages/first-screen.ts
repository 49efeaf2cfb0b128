import { escapeHtml } from '../../lib/mail.ts';

/**
 * Characters of text in the server-rendered first screen: more than a laptop window or a
 * phone shows, a small part of a book (the page carries the whole text for the app anyway).
 */
const FIRST_SCREEN_CHARACTERS = 3_000;

const VOID_ELEMENTS = new Set([
  'area',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'source',
  'track',
  'wbr',
]);
/** A tag of the normalised HTML: closing mark, name, attributes (quoted values may hold `>`). */
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/g;

/**
 * The leading top-level blocks of the manuscript's normalised HTML holding about `characters`
 * of text, cut only between blocks (the converters' output: well-formed, allow-listed).
 */
export function leadingBlocks(html: string, characters = FIRST_SCREEN_CHARACTERS): string {
  let depth = 0;
  let text = 0;
  let last = 0;
  let cut = 0;
  TAG.lastIndex = 0;
  for (let match = TAG.exec(html); match; match = TAG.exec(html)) {
    if (depth > 0) text += match.index - last;
    last = match.index + match[0].length;
    if (match[1]) depth = Math.max(0, depth - 1);
    else if (!match[4] && !VOID_ELEMENTS.has(match[2]!.toLowerCase())) depth++;
    if (depth > 0) continue;
    cut = last;
    if (text >= characters) break;
  }
  return html.slice(0, cut);
}

/**
 * The reader's first screen as static HTML, shown inside the app's root until the app renders
 * the page (React replaces it): the title and the opening blocks in the reading column's place,
 * so the first words paint before the app's script has loaded (issue 18).
 */
export function readerFirstScreen(view: {
  html: string;
  restricted_mature: boolean;
  restricted_moderation: boolean;
  manuscript: { title: string };
}): string {
  if (view.html === '' || view.restricted_mature || view.restricted_moderation) return '';
  const blocks = leadingBlocks(view.html);
  if (blocks === '') return '';
  return (
    '<div data-first-screen aria-busy="true">' +
    // In the header's place until the app draws the header (it leaves this out: first-screen.ts).
    '<div data-first-screen-header class="h-16 border-b border-line/80"></div>' +
    '<div class="mx-auto w-full max-w-[80rem] px-4 pt-8 pb-10 sm:px-6 sm:pt-12 lg:grid ' +
    'lg:grid-cols-[15rem_minmax(0,1fr)] lg:gap-10 xl:grid-cols-[15rem_minmax(0,1fr)_16rem]">' +
    '<div class="hidden lg:block"></div><div class="min-w-0">' +
    '<div class="reader-header mx-auto max-w-[65ch] text-center">' +
    '<p class="eyebrow">&nbsp;</p>' +
    // The app's title is a heading: in the headings' serif (web styles.css), as here.
    '<p class="mt-3 font-serif text-3xl leading-tight font-semibold tracking-tight text-balance sm:text-[2.75rem]">' +
    `${escapeHtml(view.manuscript.title)}</p><p class="mt-3 text-muted">&nbsp;</p>` +
    '<p class="mt-2 text-sm">&nbsp;</p><div class="reader-rule"></div></div>' +
    // The converters' normalised, allow-listed HTML: what the app puts in the reader box too.
    `<div class="reader-box">${blocks}</div></div></div></div>`
  );
}

const ROOT = '<div id="root">';

/** The shell with `markup` inside the app's root element (the app replaces it when it renders). */
export function withFirstScreen(shell: string, markup: string): string {
  if (markup === '') return shell;
  const at = shell.indexOf(ROOT);
  if (at === -1) return shell;
  const inside = at + ROOT.length;
  return shell.slice(0, inside) + markup + shell.slice(inside);
}
