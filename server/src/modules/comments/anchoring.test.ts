import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARAGRAPHS } from '@margins/common/anchoring/fixtures';
import { convertDocument } from '../../conversion/index.ts';
import { openTestDatabase } from '../../db/test-db.ts';
import { schema, type Database } from '../../db/index.ts';
import { buildUser } from '../../test/factories.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';
import {
  anchorAt,
  locateSelection,
  placeAnchor,
  reanchorHighlights,
  type AnchorFields,
} from './anchoring.ts';
import { documentText, pointAt, positionOf, type DocumentText } from './document-text.ts';

/** A draft as the converter stores it: markdown → normalised HTML with block ids. */
async function draft(paragraphs: string[]): Promise<{ html: string; doc: DocumentText }> {
  const markdown = ['# Chapter One', '', ...paragraphs.flatMap((text) => [text, ''])].join('\n');
  const { html } = await convertDocument(Buffer.from(markdown), 'md');
  return { html, doc: documentText(html) };
}

/** The anchor of the first occurrence of `quote` in a draft. */
function anchorOf(doc: DocumentText, quote: string): AnchorFields {
  const start = doc.text.indexOf(quote);
  if (start === -1) throw new Error(`"${quote}" is not in the draft`);
  return anchorAt(doc, start, start + quote.length);
}

const placedText = (doc: DocumentText, anchor: AnchorFields) => {
  const placement = placeAnchor(doc, anchor);
  return (
    placement && { text: doc.text.slice(placement.start, placement.end), method: placement.method }
  );
};

describe('document text', () => {
  it('is the textContent of the HTML, with blocks and text-node paths', () => {
    const doc = documentText('<h1 id="a">Title</h1>\n<p id="b">One <em>two</em> three.</p>\n');
    expect(doc.text).toBe('Title\nOne two three.\n');
    expect(doc.blocks).toEqual([
      { id: 'a', start: 0, end: 5 },
      { id: 'b', start: 6, end: 20 },
    ]);
    // "two" sits in <p>(child 2) → <em>(child 1) → text (child 0).
    const two = doc.text.indexOf('two');
    expect(pointAt(doc, two)).toEqual({ path: [2, 1, 0], offset: 0 });
    expect(pointAt(doc, two + 3, true)).toEqual({ path: [2, 1, 0], offset: 3 });
    expect(positionOf(doc, [2, 1, 0], 0)).toBe(two);
    expect(positionOf(doc, [2, 2], 1)).toBe(two + 4);
    expect(positionOf(doc, [9], 0)).toBeNull();
  });

  it('decodes character references as the browser does', () => {
    expect(documentText('<p id="x">Fish &amp; chips &lt;3 caf&#233;</p>').text).toBe(
      'Fish & chips <3 café',
    );
  });
});

describe('placing a highlight in a new draft', () => {
  it('keeps it by block when its paragraph is untouched, even if text was added before', async () => {
    const before = await draft(PARAGRAPHS);
    const anchor = anchorOf(before.doc, 'the streets had rearranged themselves');
    const after = await draft([
      'A brand new opening paragraph, added in the second draft.',
      ...PARAGRAPHS,
    ]);
    expect(placedText(after.doc, anchor)).toEqual({
      text: 'the streets had rearranged themselves',
      method: 'block',
    });
  });

  it('follows a moved paragraph', async () => {
    const before = await draft(PARAGRAPHS);
    const anchor = anchorOf(before.doc, 'folded the map twice');
    const moved = [PARAGRAPHS[4]!, ...PARAGRAPHS.slice(0, 4)];
    const after = await draft(moved);
    const placement = placeAnchor(after.doc, anchor)!;
    expect(after.doc.text.slice(placement.start, placement.end)).toBe('folded the map twice');
    expect(placement.start).toBeLessThan(anchor.textStart);
  });

  it('follows a moved passage whose block id is gone, by the quote and its context', async () => {
    const before = await draft(PARAGRAPHS);
    const anchor = anchorOf(before.doc, 'the lamp-black had dried pale as milk');
    // The sentence moves into another paragraph (new block ids everywhere it touches).
    const after = await draft([
      PARAGRAPHS[0]!,
      PARAGRAPHS[2]!,
      `${PARAGRAPHS[3]} ${PARAGRAPHS[1]}`,
      PARAGRAPHS[4]!,
    ]);
    expect(placedText(after.doc, anchor)).toEqual({
      text: 'the lamp-black had dried pale as milk',
      method: 'quote',
    });
  });

  it('finds an edited passage by a fuzzy match near where it was', async () => {
    const before = await draft(PARAGRAPHS);
    const anchor = anchorOf(before.doc, 'as quietly as furniture in a dream');
    const edited = [...PARAGRAPHS];
    edited[2] =
      'By night the streets had rearranged themselves again, as quietly as the furniture in a dream does.';
    const after = await draft(edited);
    const placed = placedText(after.doc, anchor)!;
    expect(placed.method).toBe('fuzzy');
    expect(placed.text).toMatch(/^as quietly as the furniture in a dream/);
  });

  it('orphans a deleted passage instead of placing it somewhere wrong', async () => {
    const before = await draft(PARAGRAPHS);
    const anchor = anchorOf(before.doc, 'drawn the Sallow bridges three times');
    const after = await draft([PARAGRAPHS[0]!, PARAGRAPHS[2]!, PARAGRAPHS[3]!, PARAGRAPHS[4]!]);
    expect(placeAnchor(after.doc, anchor)).toBeNull();
  });

  it('tells repeated words apart by their context', async () => {
    const before = await draft(PARAGRAPHS);
    const second = before.doc.text.indexOf(
      'Blank Quarter',
      before.doc.text.indexOf('Blank Quarter') + 1,
    );
    const anchor = anchorAt(before.doc, second, second + 'Blank Quarter'.length);
    const after = await draft(['A new first line.', ...PARAGRAPHS]);
    // The block id moved with its paragraph, but drop it to exercise the quote search.
    const placement = placeAnchor(after.doc, { ...anchor, blockId: null, blockOffset: null })!;
    expect(after.doc.text.slice(placement.start - 14, placement.end)).toBe(
      'nobody in the Blank Quarter',
    );
  });
});

describe('locating a new selection', () => {
  it('takes the text position when it holds the selected text', async () => {
    const { doc } = await draft(PARAGRAPHS);
    const start = doc.text.indexOf('cedar and river damp');
    const end = start + 'cedar and river damp'.length;
    expect(
      locateSelection(doc, {
        start,
        end,
        startPath: [],
        endPath: [],
        startOffset: 0,
        endOffset: 0,
        selectedText: 'cedar and river damp',
      }),
    ).toEqual({ start, end });
  });

  it('falls back to the DOM paths, then to the text near the hint (whitespace aside)', async () => {
    const { doc } = await draft(PARAGRAPHS);
    const start = doc.text.indexOf('compass that never');
    const from = pointAt(doc, start)!;
    const to = pointAt(doc, start + 'compass that never'.length, true)!;
    const byPaths = locateSelection(doc, {
      startPath: from.path,
      startOffset: from.offset,
      endPath: to.path,
      endOffset: to.offset,
      selectedText: 'compass that never',
    });
    expect(byPaths).toEqual({ start, end: start + 'compass that never'.length });
    // A selection across two paragraphs: the browser's "\n\n" against the text's "\n".
    const across = locateSelection(doc, {
      start: 3,
      end: 4,
      startPath: [],
      endPath: [],
      startOffset: 0,
      endOffset: 0,
      selectedText: 'river damp.\n\nMaren had drawn',
    })!;
    expect(doc.text.slice(across.start, across.end)).toBe('river damp.\nMaren had drawn');
  });

  it('places a short, repeated word at the occurrence nearest the paths', async () => {
    const { doc } = await draft(PARAGRAPHS);
    const second = doc.text.indexOf('the', doc.text.indexOf('Maren'));
    // Paths one character off (a browser that counted differently): the nearest "the" wins.
    const from = pointAt(doc, second + 1)!;
    const to = pointAt(doc, second + 4, true)!;
    const located = locateSelection(doc, {
      startPath: from.path,
      startOffset: from.offset,
      endPath: to.path,
      endOffset: to.offset,
      selectedText: 'the',
    });
    expect(located).toEqual({ start: second, end: second + 3 });
  });

  it('refuses text that is not in the manuscript', async () => {
    const { doc } = await draft(PARAGRAPHS);
    expect(
      locateSelection(doc, {
        startPath: [0],
        endPath: [0],
        startOffset: 0,
        endOffset: 5,
        selectedText: 'Text from somewhere else on the page entirely',
      }),
    ).toBeNull();
  });
});

describe('reanchorHighlights', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('keeps, moves and orphans the highlights of a manuscript in one pass', async () => {
    const { db } = database;
    const author = await buildUser(db);
    const first = await draft(PARAGRAPHS);
    const manuscript = await buildManuscript(db, author, {}, first.html);
    const quotes = {
      kept: 'smelled of cedar and river damp',
      edited: 'as quietly as furniture in a dream',
      deleted: 'drawn the Sallow bridges three times',
    };
    for (const [id, quote] of Object.entries(quotes)) {
      const anchor = anchorOf(first.doc, quote);
      await db.insert(schema.highlights).values({
        id: `hl-${id}-${manuscript.id}`,
        manuscriptId: manuscript.id,
        versionId: manuscript.currentVersionId,
        userId: author.id,
        ...anchor,
        selectedText: quote,
      });
    }
    const second = await draft([
      'A new opening.',
      PARAGRAPHS[0]!,
      'By night the streets had rearranged themselves again, as quietly as the furniture in a dream.',
      PARAGRAPHS[3]!,
    ]);
    const [version] = await db
      .insert(schema.manuscriptVersions)
      .values({
        manuscriptId: manuscript.id,
        number: 2,
        sourceFormat: 'md',
        fileName: 'draft-2.md',
        html: second.html,
        toc: [],
        words: 50,
      })
      .returning();
    const summary = await db.transaction((tx) =>
      reanchorHighlights(tx, manuscript.id, { id: version!.id, html: second.html }),
    );
    expect(summary).toEqual({ kept: 1, moved: 1, orphaned: 1 });

    const rows = await db
      .select()
      .from(schema.highlights)
      .where(eq(schema.highlights.manuscriptId, manuscript.id));
    const byId = new Map(rows.map((row) => [row.id.split('-')[1], row]));
    const kept = byId.get('kept')!;
    expect(kept.orphaned).toBe(false);
    expect(kept.versionId).toBe(version!.id);
    expect(second.doc.text.slice(kept.textStart, kept.textEnd)).toBe(quotes.kept);
    expect(positionOf(second.doc, kept.startPath, kept.startOffset)).toBe(kept.textStart);
    expect(kept.quotePrefix.length).toBeGreaterThan(0);
    const edited = byId.get('edited')!;
    expect(edited.orphaned).toBe(false);
    expect(edited.quoteExact).toMatch(/as quietly as the furniture in a dream/);
    expect(edited.selectedText).toBe(quotes.edited);
    const deleted = byId.get('deleted')!;
    expect(deleted.orphaned).toBe(true);
    expect(deleted.versionId).toBe(manuscript.currentVersionId);
    expect(deleted.quoteExact).toBe(quotes.deleted);
  });
});
