// @vitest-environment jsdom
// The server reads a draft's text from the parsed HTML (hast); the browser from the reader box
// (DOM). Both go through this core: on every fixture they must agree on the text, every text
// node and block, every position ↔ path, and where every quote is found again in a new draft.
import { fromParse5 } from 'hast-util-from-parse5';
import { parseFragment } from 'parse5';
import { describe, expect, it } from 'vitest';
import {
  blockAt,
  buildModel,
  DOM_TREE,
  HAST_TREE,
  pathAt,
  positionOfPath,
  type DocumentModel,
  type DomLike,
  type HastLike,
} from './document-model.ts';
import { ANCHORING_FIXTURES, draftHtml, PARAGRAPHS } from './fixtures.ts';
import { bestExactOccurrence, bestFuzzyMatch, type QuoteAnchor } from './quote-match.ts';

/** The reader box as the browser builds it: a div whose innerHTML is the manuscript HTML. */
function clientModel(html: string): DocumentModel {
  const { document } = globalThis as unknown as {
    document: { createElement(tag: string): DomLike & { innerHTML: string } };
  };
  const box = document.createElement('div');
  box.innerHTML = html;
  return buildModel(box, DOM_TREE);
}

/** The draft as the server reads it: the HTML parsed to hast. */
function serverModel(html: string): DocumentModel {
  return buildModel(fromParse5(parseFragment(html)) as HastLike, HAST_TREE);
}

const plain = ({ text, nodes, blocks }: DocumentModel) => ({ text, nodes, blocks });

/** Quote anchors of every word and some longer spans of a model. */
function anchorsOf(model: DocumentModel): QuoteAnchor[] {
  const anchors: QuoteAnchor[] = [];
  const spans: Array<[number, number]> = [];
  for (const match of model.text.matchAll(/\S+/g)) {
    spans.push([match.index, match.index + match[0].length]);
  }
  for (let index = 0; index + 5 < spans.length; index += 3) {
    spans.push([spans[index]![0], spans[index + 5]![1]]);
  }
  for (const [start, end] of spans) {
    anchors.push({
      quoteExact: model.text.slice(start, end),
      quotePrefix: model.text.slice(Math.max(0, start - 32), start),
      quoteSuffix: model.text.slice(end, end + 32),
      textStart: start,
    });
  }
  return anchors;
}

describe.each(Object.entries(ANCHORING_FIXTURES))('fixture "%s"', (_name, html) => {
  const server = serverModel(html);
  const client = clientModel(html);

  it('has the same text, text nodes and blocks on both sides', () => {
    expect(plain(client)).toEqual(plain(server));
    expect(server.text.length).toBeGreaterThan(0);
  });

  it('maps every position to the same block and path, and back', () => {
    for (let at = 0; at <= server.text.length; at++) {
      expect(blockAt(client, at), `block at ${at}`).toEqual(blockAt(server, at));
      for (const asEnd of [false, true]) {
        const point = pathAt(server, at, asEnd);
        expect(pathAt(client, at, asEnd), `path at ${at}`).toEqual(point);
        if (!point) continue;
        expect(positionOfPath(client, point.path, point.offset)).toBe(at);
        expect(positionOfPath(server, point.path, point.offset)).toBe(at);
      }
    }
  });

  it('finds every quote of the first draft at the same place', () => {
    const before = serverModel(draftHtml(PARAGRAPHS));
    for (const anchor of anchorsOf(before)) {
      const onServer =
        bestExactOccurrence(server.text, anchor) ?? bestFuzzyMatch(server.text, anchor);
      const onClient =
        bestExactOccurrence(client.text, anchor) ?? bestFuzzyMatch(client.text, anchor);
      expect(onClient, anchor.quoteExact).toEqual(onServer);
    }
  });
});

describe('quote matching', () => {
  const before = serverModel(draftHtml(PARAGRAPHS));
  const anchor = (quote: string): QuoteAnchor => {
    const start = before.text.indexOf(quote);
    return {
      quoteExact: quote,
      quotePrefix: before.text.slice(Math.max(0, start - 32), start),
      quoteSuffix: before.text.slice(start + quote.length, start + quote.length + 32),
      textStart: start,
    };
  };

  it('tells repeats apart by their context, and finds edited passages approximately', () => {
    const edited = clientModel(ANCHORING_FIXTURES['draft, edited']!);
    const second = before.text.lastIndexOf('Blank Quarter');
    const repeated = bestExactOccurrence(edited.text, {
      quoteExact: 'Blank Quarter',
      quotePrefix: before.text.slice(second - 32, second),
      quoteSuffix: before.text.slice(second + 13, second + 45),
      textStart: second,
    })!;
    expect(edited.text.slice(repeated.start - 14, repeated.end)).toBe(
      'nobody in the Blank Quarter',
    );
    const fuzzy = bestFuzzyMatch(edited.text, anchor('as quietly as furniture in a dream'))!;
    expect(fuzzy.method).toBe('fuzzy');
    expect(edited.text.slice(fuzzy.start, fuzzy.end)).toMatch(/^as quietly as the furniture/);
  });

  it('finds nothing for a deleted passage, an empty quote or a short word without context', () => {
    const edited = clientModel(draftHtml([PARAGRAPHS[0]!]));
    const gone = anchor('drawn the Sallow bridges three times');
    expect(bestExactOccurrence(edited.text, gone) ?? bestFuzzyMatch(edited.text, gone)).toBeNull();
    expect(bestExactOccurrence(edited.text, { ...gone, quoteExact: '' })).toBeNull();
    const word = { quoteExact: 'the', quotePrefix: 'zzzz', quoteSuffix: 'zzzz', textStart: 0 };
    // "the" occurs many times in the full draft: without its context none of them is it.
    expect(bestExactOccurrence(before.text, word)).toBeNull();
  });
});
