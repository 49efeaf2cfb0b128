// The reader benchmark's case: the ~150k-word test novel as one manuscript with 2,000
// highlights, a comment on each, all by its author; and a real server on BENCH_PORT (3160)
// with its own DATA_DIR, which also serves the static anchor page at /bench/anchor.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { buildBook } from './fixtures/book.ts';
import { toMarkdown } from './fixtures/writers.ts';
import { BENCH_SESSION_SECRET, createManuscript, createPeople } from './realtime-support.ts';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { convertDocument } from '../server/src/conversion/index.ts';
import { openDatabase, schema, type Database } from '../server/src/db/index.ts';
import { anchorAt } from '../server/src/modules/comments/anchoring.ts';
import { documentText } from '../server/src/modules/comments/document-text.ts';
import { webDist } from '../server/src/paths.ts';
import { openBenchDatabase } from './embedded-db.ts';

export interface ReaderBookServer {
  baseUrl: string;
  manuscriptId: number;
  words: number;
  highlights: number;
  /** The server's database (open in this process): benches add people with it. */
  database: Database;
  /** The author's session cookie: name and value. */
  cookie: { name: string; value: string };
  /** Sets the static anchor page's text (the reader box's HTML with its marks). */
  setAnchorHtml(html: string): void;
  close(): Promise<void>;
}

/** The stylesheets of the built web app (the anchor page uses the same typography). */
function stylesheets(): string[] {
  const assets = path.join(webDist, 'assets');
  return readdirSync(assets)
    .filter((file) => file.endsWith('.css'))
    .map((file) => `/assets/${file}`);
}

/** The static anchor: the same text and marks in the same reading column, and no script. */
function anchorPage(boxHtml: string): string {
  const links = stylesheets()
    .map((href) => `<link rel="stylesheet" href="${href}">`)
    .join('');
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>Anchor</title>${links}</head><body>` +
    '<main class="mx-auto w-full max-w-[80rem] px-4 pt-8 sm:px-6 sm:pt-12">' +
    `<div class="reader-box">${boxHtml}</div></main></body></html>`
  );
}

/** Starts the server on `port` with the book and its 2,000 notes. */
export async function startReaderBook(port: number, count: number): Promise<ReaderBookServer> {
  const converted = await convertDocument(Buffer.from(toMarkdown(buildBook('big'))), 'md');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'margins-reader-bench-'));
  const config = loadConfig({
    NODE_ENV: 'development',
    SESSION_SECRET: BENCH_SESSION_SECRET,
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    PORT: String(port),
  });
  // BENCH_DATABASE_URL: on a PostgreSQL server instead (embedded-db.ts).
  const database = process.env.BENCH_DATABASE_URL
    ? await openBenchDatabase('reader-book')
    : await openDatabase({ dataDir });
  const app = await buildApp(config, database);
  let anchorHtml = '';
  app.get('/bench/anchor', { schema: { hide: true } }, (_request, reply) =>
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(anchorHtml),
  );
  await app.listen({ port, host: '127.0.0.1' });

  const [owner] = await createPeople(database, 1, 'author');
  const manuscriptId = await createManuscript(database, owner!.id, { title: 'The Long Book' });
  const { db } = database;
  const [manuscript] = await db
    .select()
    .from(schema.manuscripts)
    .where(eq(schema.manuscripts.id, manuscriptId));
  const versionId = manuscript!.currentVersionId!;
  await db
    .update(schema.manuscriptVersions)
    .set({ html: converted.html, toc: converted.toc, words: converted.words })
    .where(eq(schema.manuscriptVersions.id, versionId));

  // One sentence-sized passage in every n-th long paragraph, from the first to the last.
  const doc = documentText(converted.html);
  const long = doc.blocks.filter((block) => block.end - block.start > 120);
  const step = Math.max(1, Math.floor(long.length / count));
  const rows = Array.from({ length: Math.min(count, long.length) }, (_, index) => {
    const block = long[index * step]!;
    const anchor = anchorAt(doc, block.start + 10, block.start + 70);
    return {
      id: `bench-${index}`,
      manuscriptId,
      versionId,
      userId: owner!.id,
      ...anchor,
      selectedText: anchor.quoteExact,
      colour: index % 8,
    };
  });
  for (let from = 0; from < rows.length; from += 500) {
    const slice = rows.slice(from, from + 500);
    await db.insert(schema.highlights).values(slice);
    await db.insert(schema.comments).values(
      slice.map((row, index) => ({
        manuscriptId,
        selectionId: row.id,
        authorId: owner!.id,
        body: `Comment ${from + index}: this passage could be tighter.`,
      })),
    );
  }

  const [name, ...value] = owner!.cookie.split('=');
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    manuscriptId,
    words: converted.words,
    database,
    highlights: rows.length,
    cookie: { name: name!, value: value.join('=') },
    setAnchorHtml: (html) => {
      anchorHtml = anchorPage(html);
    },
    close: async () => {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
