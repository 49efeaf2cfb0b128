import { describe, expect, it } from 'vitest';
import type { Highlight } from '@margins/common';
import { HARBOUR_HTML } from '@margins/common/anchoring/fixtures';
import {
  anchorOfRange,
  anchorOfSpan,
  buildDocumentModel,
  LiveText,
  isWithheldPlace,
  placeHighlight,
  positionOfPath,
  type AnchorFields,
} from './anchoring.ts';
import { HighlightPainter } from './painter.ts';
import { buildWithheldHighlight } from './test-data.ts';

// The shape the normaliser serves: top-level blocks with ids, "\n" between them, inline
// elements inside (shared with the server's tests: common/src/anchoring/fixtures.ts).
const HTML = HARBOUR_HTML;

function makeBox(html = HTML): HTMLElement {
  const box = document.createElement('div');
  box.className = 'reader-box';
  box.innerHTML = html;
  document.body.replaceChildren(box);
  return box;
}

/** The text node that contains `text`, and the offset of `text` in it. */
function locate(box: HTMLElement, text: string): { node: Text; offset: number } {
  const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const offset = (node as Text).data.indexOf(text);
    if (offset !== -1) return { node: node as Text, offset };
  }
  throw new Error(`no text node with "${text}"`);
}

function rangeOver(box: HTMLElement, from: string, to: string): Range {
  const start = locate(box, from);
  const end = locate(box, to);
  const range = document.createRange();
  range.setStart(start.node, start.offset);
  range.setEnd(end.node, end.offset + to.length);
  return range;
}

function stored(overrides: Partial<AnchorFields>): AnchorFields {
  return {
    startPath: [],
    endPath: [],
    startOffset: 0,
    endOffset: 0,
    start: 0,
    end: 0,
    quote: { exact: '', prefix: '', suffix: '' },
    private: false,
    ...overrides,
  };
}

describe('the document model of the pristine reader box', () => {
  it('is the textContent, with every text node’s child-index path and every block’s span', () => {
    const box = makeBox();
    const model = buildDocumentModel(box);
    expect(model.text).toBe(box.textContent);
    // <p id="p-1"> is child 2 of the box (h1, "\n", p); its <em> is child 1; the em's text is 0.
    const emText = model.nodes.find(
      (node) => model.text.slice(node.start, node.end) === 'before the boats',
    );
    expect(emText?.path).toEqual([2, 1, 0]);
    expect(model.blocks.map((block) => block.id)).toEqual(['h-1', 'p-1', 'p-2', 'p-3']);
    const p2 = model.blocks[2]!;
    expect(model.text.slice(p2.start, p2.end)).toBe(
      'Maren counted the lamps along the harbour wall.',
    );
  });
});

describe('a selection becomes a highlight’s anchors', () => {
  it('across element boundaries: SPEC paths and offsets, text position, block, quote with 32 characters of context', () => {
    const box = makeBox();
    const model = buildDocumentModel(box);
    const range = rangeOver(box, 'came in', 'boats');
    const anchor = anchorOfRange(model, new LiveText(box), range)!;
    expect(anchor.selectedText).toBe('came in before the boats');
    expect(anchor.startPath).toEqual([2, 0]);
    expect(anchor.startOffset).toBe('The fog '.length);
    expect(anchor.endPath).toEqual([2, 1, 0]);
    expect(anchor.endOffset).toBe('before the boats'.length);
    expect(model.text.slice(anchor.start, anchor.end)).toBe('came in before the boats');
    expect(anchor.block_id).toBe('p-1');
    expect(anchor.quote.exact).toBe('came in before the boats');
    // Near the start there are fewer than 32 characters before it: all of them.
    expect(anchor.quote.prefix).toBe('Chapter One\nThe fog ');
    expect(anchor.quote.suffix).toBe(' did, the way it always had.\nMar');

    const later = anchorOfRange(model, new LiveText(box), rangeOver(box, 'harbour', 'harbour'))!;
    expect(later.quote.prefix).toBe('ren counted the lamps along the ');
    expect(later.quote.prefix).toHaveLength(32);
    expect(later.quote.suffix).toBe(' wall.\nThe fog came in again, an');
    expect(later.quote.suffix).toHaveLength(32);
  });

  it('trims whitespace off the edges and reads element boundaries (a triple click)', () => {
    const box = makeBox();
    const model = buildDocumentModel(box);
    const range = document.createRange();
    // From the start of <p id="p-2"> to the start of <p id="p-3">: the whole paragraph and "\n".
    range.setStart(box.children[2]!, 0);
    range.setEnd(box.children[3]!, 0);
    const anchor = anchorOfRange(model, new LiveText(box), range)!;
    expect(anchor.selectedText).toBe('Maren counted the lamps along the harbour wall.');
    expect(anchor.block_id).toBe('p-2');
    expect(anchor.endPath).toEqual([4, 2]);
    expect(anchor.endOffset).toBe(' wall.'.length);
  });

  it('keeps the pristine paths once highlights have split the text into <mark>s', () => {
    const box = makeBox();
    const model = buildDocumentModel(box);
    const first = anchorOfSpan(
      model,
      model.text.indexOf('lamps along'),
      model.text.indexOf(' wall'),
    )!;
    new HighlightPainter(box).sync([{ id: 'a', start: first.start, end: first.end, colour: 0 }]);
    expect(box.querySelectorAll('mark').length).toBeGreaterThan(1);

    // A new selection inside the marked text: the live text nodes are pieces now.
    const range = rangeOver(box, 'harbour', 'harbour');
    const anchor = anchorOfRange(model, new LiveText(box), range)!;
    expect(anchor.selectedText).toBe('harbour');
    expect(anchor.startPath).toEqual([4, 1, 0]);
    expect(anchor.startOffset).toBe(0);
    expect(anchor.endPath).toEqual([4, 1, 0]);
    expect(anchor.endOffset).toBe(7);
  });

  it('offers nothing for a selection that leaves the reader box, or an empty one', () => {
    const box = makeBox();
    const outside = document.createElement('p');
    outside.textContent = 'Outside the text';
    document.body.append(outside);
    const model = buildDocumentModel(box);
    const range = document.createRange();
    range.setStart(locate(box, 'The fog').node, 0);
    range.setEnd(outside.firstChild!, 4);
    expect(anchorOfRange(model, new LiveText(box), range)).toBeNull();
    const blank = document.createRange();
    blank.setStart(box.childNodes[1]!, 0); // the "\n" between blocks
    blank.setEnd(box.childNodes[1]!, 1);
    expect(anchorOfRange(model, new LiveText(box), blank)).toBeNull();
  });
});

describe('placing a stored highlight: range → position → quote, else an orphan', () => {
  const box = makeBox();
  const model = buildDocumentModel(box);
  const lamps = anchorOfSpan(
    model,
    model.text.indexOf('the lamps along'),
    model.text.indexOf(' wall'),
  )!;
  const asStored = stored({ ...lamps, quote: lamps.quote });

  it('uses the range when its paths still hold the quote', () => {
    expect(placeHighlight(model, asStored)).toEqual({
      start: lamps.start,
      end: lamps.end,
      method: 'range',
    });
    expect(positionOfPath(model, lamps.startPath, lamps.startOffset)).toBe(lamps.start);
  });

  it('falls back to the text position when the paths no longer fit', () => {
    const placed = placeHighlight(model, { ...asStored, startPath: [99, 0], endPath: [99, 1] });
    expect(placed).toEqual({ start: lamps.start, end: lamps.end, method: 'position' });
  });

  it('searches the quote when the passage moved (a new draft), context deciding between repeats', () => {
    const draft = makeBox(`<p id="x">A new opening line.</p>\n${HTML}`);
    const moved = buildDocumentModel(draft);
    const placed = placeHighlight(moved, asStored)!;
    expect(placed.method).toBe('quote');
    expect(moved.text.slice(placed.start, placed.end)).toBe('the lamps along the harbour');

    // "The fog came in" is in p-1 and p-3: the prefix/suffix pick the one that was meant.
    const second = anchorOfSpan(
      model,
      model.text.lastIndexOf('The fog came in'),
      model.text.lastIndexOf(' again'),
    )!;
    const placedSecond = placeHighlight(
      moved,
      stored({ ...second, startPath: [0], endPath: [0] }),
    )!;
    expect(placedSecond.method).toBe('quote');
    expect(placedSecond.start).toBe(moved.text.lastIndexOf('The fog came in'));
  });

  it('gives up (an orphan) when the quote is gone, or when the server says so', () => {
    const edited = buildDocumentModel(makeBox('<p id="y">Nothing of the old text is left.</p>'));
    expect(placeHighlight(edited, asStored)).toBeNull();
    expect(placeHighlight(model, { ...asStored, orphaned: true })).toBeNull();
  });

  it('trusts the range of a private highlight (its quote is withheld) and orphans it otherwise', () => {
    const withheld = {
      ...asStored,
      private: true,
      quote: { exact: '', prefix: '', suffix: '' },
      selectedText: '',
    };
    expect(placeHighlight(model, withheld)?.method).toBe('range');
    expect(
      placeHighlight(model, { ...withheld, startPath: [99], endPath: [99], start: 5, end: 2 }),
    ).toBeNull();
  });

  it("places no private highlight sent without its place (another reader's, private comments)", () => {
    const withheld = buildWithheldHighlight();
    expect(isWithheldPlace(withheld)).toBe(true);
    expect(placeHighlight(model, withheld)).toBeNull();
    expect(isWithheldPlace({ ...withheld, private: false })).toBe(false);
  });

  it('reads a Highlight as the server sends it', () => {
    const highlight: Highlight = {
      selection_id: 'sel-000001',
      manuscript_id: 1,
      user_id: 1,
      version_id: 1,
      ...lamps,
      block_id: 'p-2',
      colour: 3,
      orphaned: false,
      private: false,
      created: '2026-01-01T00:00:00.000Z',
      updated: '2026-01-01T00:00:00.000Z',
    };
    expect(placeHighlight(model, highlight)?.start).toBe(lamps.start);
  });
});
