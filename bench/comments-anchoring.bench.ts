// Comments on the ~150k-word test novel: 2,000 highlights with a comment each.
//   npx tsx bench/comments-anchoring.bench.ts [highlights=2000]
// Prints: the author's GET /comments/manuscript/:id (all comments, p50 of 5), parsing the draft's
// text, placing a new selection, and re-anchoring every highlight onto an edited second draft
// (a new opening, ~10% of paragraphs edited, ~2% deleted, a run of 100 paragraphs moved).
import { eq } from 'drizzle-orm';
import { buildBook } from './fixtures/book.ts';
import { toMarkdown } from './fixtures/writers.ts';
import { convertDocument } from '../server/src/conversion/index.ts';
import { schema } from '../server/src/db/index.ts';
import {
  anchorAt,
  locateSelection,
  reanchorHighlights,
} from '../server/src/modules/comments/anchoring.ts';
import { documentText } from '../server/src/modules/comments/document-text.ts';
import {
  createManuscript,
  createPeople,
  percentile,
  round,
  startServer,
} from './realtime-support.ts';

const count = Number(process.argv[2] ?? 2000);
const paragraphs = toMarkdown(buildBook('big')).split(/\n{2,}/);
const first = await convertDocument(Buffer.from(paragraphs.join('\n\n')), 'md');

// The second draft: a new opening, edits, deletions and a moved run of paragraphs.
const edited = paragraphs.flatMap((paragraph, index) => {
  if (index > 5 && index % 50 === 0) return [];
  if (index % 10 === 3) return [paragraph.replace(/ the /, ' the very ')];
  return [paragraph];
});
const middle = Math.floor(edited.length / 2);
const moved = edited.splice(middle, 100);
const second = await convertDocument(
  Buffer.from(['A new opening paragraph for the second draft.', ...edited, ...moved].join('\n\n')),
  'md',
);

let started = performance.now();
const doc = documentText(first.html);
const parseMs = performance.now() - started;
console.log(
  `novel: ${first.words} words, ${doc.text.length} characters of text, ${doc.blocks.length} blocks; ` +
    `text parsed in ${round(parseMs)} ms`,
);

const server = await startServer();
const [owner] = await createPeople(server.database, 1);
const manuscriptId = await createManuscript(server.database, owner!.id);
const { db } = server.database;
const [manuscript] = await db
  .select()
  .from(schema.manuscripts)
  .where(eq(schema.manuscripts.id, manuscriptId));
await db
  .update(schema.manuscriptVersions)
  .set({ html: first.html })
  .where(eq(schema.manuscriptVersions.id, manuscript!.currentVersionId!));

// Highlights: one sentence-sized passage in every n-th long paragraph.
const long = doc.blocks.filter((block) => block.end - block.start > 120);
const step = Math.max(1, Math.floor(long.length / count));
const rows = Array.from({ length: Math.min(count, long.length) }, (_, index) => {
  const block = long[index * step]!;
  const anchor = anchorAt(doc, block.start + 10, block.start + 70);
  return {
    id: `bench-${index}`,
    manuscriptId,
    versionId: manuscript!.currentVersionId,
    userId: owner!.id,
    ...anchor,
    selectedText: anchor.quoteExact,
    colour: index % 8,
  };
});
for (let from = 0; from < rows.length; from += 500) {
  await db.insert(schema.highlights).values(rows.slice(from, from + 500));
  await db.insert(schema.comments).values(
    rows.slice(from, from + 500).map((row, index) => ({
      manuscriptId,
      selectionId: row.id,
      authorId: owner!.id,
      body: `Comment ${from + index}: this passage could be tighter.`,
    })),
  );
}

const timings: number[] = [];
let size = 0;
for (let run = 0; run < 5; run++) {
  started = performance.now();
  const response = await server.app.inject({
    method: 'GET',
    url: `/comments/manuscript/${manuscriptId}`,
    headers: { accept: 'application/json', cookie: owner!.cookie },
  });
  timings.push(performance.now() - started);
  size = response.body.length;
  if (response.statusCode !== 200) throw new Error(response.body);
}
console.log(
  `GET all ${rows.length} comments + highlights (author): p50 ${round(percentile(timings, 50))} ms, ` +
    `${round(size / 1024)} kB`,
);

const target = rows[Math.floor(rows.length / 2)]!;
started = performance.now();
const located = locateSelection(doc, {
  startPath: [],
  endPath: [],
  startOffset: 0,
  endOffset: 0,
  selectedText: target.quoteExact,
});
console.log(
  `a new selection without a text position, found by its text: ${round(performance.now() - started)} ms ` +
    `(${located?.start === target.textStart ? 'right place' : 'WRONG PLACE'})`,
);

const [version] = await db
  .insert(schema.manuscriptVersions)
  .values({
    manuscriptId,
    number: 2,
    sourceFormat: 'md',
    fileName: 'draft-2.md',
    html: second.html,
    toc: second.toc,
    words: second.words,
  })
  .returning();
started = performance.now();
const summary = await db.transaction((tx) =>
  reanchorHighlights(tx, manuscriptId, { id: version!.id, html: second.html }),
);
console.log(
  `re-anchored ${rows.length} highlights onto the second draft in ${round(performance.now() - started)} ms: ` +
    `${summary.kept} kept, ${summary.moved} moved by an edit, ${summary.orphaned} orphaned`,
);
await server.close();
