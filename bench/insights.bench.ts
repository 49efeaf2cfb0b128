// Reading insights (issue 15): the author's Insights for a manuscript with 500 readers × 40
// chapters, and the event-loop cost of a reader's progress batch.
//   npx tsx bench/insights.bench.ts [readers=500] [chapters=40]
// Targets: Insights p95 < 100 ms on the embedded database (PGlite); a progress batch < 1 ms of
// event loop. PGlite runs in this thread, so its query time is event-loop time too: the
// per-write figure is everything the server's thread spends on one batch (HTTP included).
import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import { schema } from '../server/src/db/index.ts';
import { changeListenerOf } from '../server/src/db/change-listener.ts';
import { sessionCacheOf } from '../server/src/modules/auth/session-cache.ts';
import { insightsOf } from '../server/src/modules/insights/service.ts';
import { clientFor } from '../server/src/modules/invites/test-helpers.ts';
import { buildUser } from '../server/src/test/factories.ts';
import { createTestApp } from '../server/src/test/harness.ts';
import { openEmbeddedOnDisk } from './embedded-db.ts';

const readerCount = Number(process.argv[2] ?? 500);
const chapterCount = Number(process.argv[3] ?? 40);
const BLOCKS_PER_CHAPTER = 10;
const TARGET_MS = 100;
const TARGET_WRITE_MS = 1;

/** A fixed pseudo-random sequence (the same data every run). */
let seed = 42;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

const test = await createTestApp({}, () => openEmbeddedOnDisk('insights'));
const db = test.ctx.db;
const author = await buildUser(db);
const html: string[] = [];
const toc: Array<{ id: string; level: 1; text: string }> = [];
for (let chapter = 0; chapter < chapterCount; chapter++) {
  html.push(`<h1 id="c${chapter}">Chapter ${chapter + 1}</h1>`);
  toc.push({ id: `c${chapter}`, level: 1, text: `Chapter ${chapter + 1}` });
  for (let block = 1; block < BLOCKS_PER_CHAPTER; block++) {
    html.push(`<p id="c${chapter}-${block}">${'word '.repeat(120)}</p>`);
  }
}
const [manuscript] = await db
  .insert(schema.manuscripts)
  .values({ userId: author.id, title: 'Benchmark', visibility: 'public', inking: false })
  .returning();
const [version] = await db
  .insert(schema.manuscriptVersions)
  .values({
    manuscriptId: manuscript!.id,
    number: 1,
    sourceFormat: 'html',
    fileName: 'bench.html',
    html: html.join(''),
    toc,
    words: chapterCount * 9 * 120,
  })
  .returning();
await db
  .update(schema.manuscripts)
  .set({ currentVersionId: version!.id })
  .where(eq(schema.manuscripts.id, manuscript!.id));

console.log(
  `Insights benchmark: ${readerCount} readers × ${chapterCount} chapters on PGlite (filling…)`,
);
const fillStarted = performance.now();
const readers = await db
  .insert(schema.users)
  .values(
    Array.from({ length: readerCount }, (_, index) => ({
      email: `bench-${index}@example.test`,
      passwordHash: 'x',
      displayName: `Reader ${index}`,
      handle: `bench_${index}`,
      emailVerifiedAt: new Date(),
    })),
  )
  .returning();
const bookmarks = await db
  .insert(schema.bookmarks)
  .values(readers.map((reader) => ({ userId: reader.id, manuscriptId: manuscript!.id })))
  .returning();
let rows: Array<typeof schema.readingChapters.$inferInsert> = [];
for (const bookmark of bookmarks) {
  // Most readers drop off along the way: reach ~ chapters × random².
  const reach = Math.floor(chapterCount * (1 - random() ** 2));
  for (let chapter = 0; chapter < reach; chapter++) {
    const seen = Array.from({ length: BLOCKS_PER_CHAPTER - 1 }, (_, i) => `c${chapter}-${i + 1}`);
    rows.push({
      bookmarkId: bookmark.id,
      chapterId: `c${chapter}`,
      userId: bookmark.userId,
      manuscriptId: manuscript!.id,
      seconds: 120 + random() * 300,
      seenBlockIds: seen,
      blocksSeen: seen.length,
    });
    if (rows.length >= 2_000) {
      await db.insert(schema.readingChapters).values(rows);
      rows = [];
    }
  }
  if (random() < 0.1) {
    await db.insert(schema.readingStates).values({
      bookmarkId: bookmark.id,
      userId: bookmark.userId,
      manuscriptId: manuscript!.id,
      stoppedAt: new Date(),
      stopReason: 'too_slow',
      stopText: 'Slow.',
      stopChapterId: `c${Math.floor(random() * chapterCount)}`,
    });
  }
}
if (rows.length) await db.insert(schema.readingChapters).values(rows);
const chapterRows = (
  await db.select({ bookmarkId: schema.readingChapters.bookmarkId }).from(schema.readingChapters)
).length;
console.log(
  `filled ${chapterRows} chapter rows in ${Math.round(performance.now() - fillStarted)} ms`,
);

// PROFILE=1: the time of each of the Insights queries on its own.
if (process.env.PROFILE) {
  await db.execute('select 1');
  const floor = performance.now();
  for (let i = 0; i < 10; i++) await db.execute('select 1');
  console.log('select 1', ((performance.now() - floor) / 10).toFixed(1), 'ms');
  const q = await import('../server/src/modules/insights/queries.ts');
  const { currentChapters } = await import('../server/src/modules/insights/chapters.ts');
  const [m] = await db
    .select()
    .from(schema.manuscripts)
    .where(eq(schema.manuscripts.id, manuscript!.id));
  const map = await currentChapters(db, m!);
  const order = map.chapters.map((c) => c.id);
  const parts: Record<string, () => Promise<unknown>> = {
    reads: () => q.readsOf(db, m!.id, author.id),
    progress: () => q.progressByRead(db, m!.id, order),
    medians: () => q.medianSecondsByChapter(db, m!.id, author.id),
    marks: () => q.marksByBlock(db, m!.id),
    comments: () => q.commentsByAuthor(db, m!.id),
    answers: () => q.surveyAnswersOf(db, m!.id),
  };
  for (const [name, run] of Object.entries(parts)) {
    await run();
    const t = performance.now();
    for (let i = 0; i < 10; i++) await run();
    console.log(name, ((performance.now() - t) / 10).toFixed(1), 'ms');
  }
}
// The Insights read, as the route calls it.
const times: number[] = [];
for (let run = 0; run < 60; run++) {
  const started = performance.now();
  await insightsOf(test.ctx, author, manuscript!.id);
  if (run >= 10) times.push(performance.now() - started); // the first runs warm up
}
const p95 = percentile(times, 95);
console.log(
  `\nInsights: p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms` +
    ` (target < ${TARGET_MS} ms: ratio ${(p95 / TARGET_MS).toFixed(2)})`,
);

// Progress batches (12 blocks each) over HTTP, as readers send them: the event loop's busy time
// per write. Readers write at once in waves (as many readers do on a live server: their batches
// share a statement, see bookmarks/reading-write.ts), and one reader alone, one write at a time
// (nothing to share). The target is the batched cost, a write's share of the statement: one
// reader alone pays a whole statement (~3–6 ms of PGlite's parse, plan and commit, once per 20 s
// of their reading), printed but not held to the target. The floor: the same client's cheapest
// request (GET /healthz: session lookup, plugins, one `select 1`), which every request pays
// whatever it does. Printed with the session cache on and off (bench/request-floor.bench.ts has
// the floor over real HTTP).
const WAVE = Math.min(50, readers.length);
const clients = await Promise.all(readers.slice(0, WAVE).map((reader) => clientFor(test, reader)));
let chapter = 0;
const batchOf = () => {
  const blocks = Array.from({ length: 12 }, (_, index) => ({
    id: `c${chapter}-${(index % 9) + 1}`,
    ms: 1500,
  }));
  chapter = (chapter + 1) % chapterCount;
  return { blocks, position: { block_idx: chapter * BLOCKS_PER_CHAPTER, percent: 10 } };
};
/**
 * Event-loop busy ms per request over `rounds` waves of `clientsUsed` requests at once (and the
 * process's CPU ms per request, printed: on a shared machine the busy time also counts the
 * moments this process was waiting for a core).
 */
async function busyPerRequest(
  rounds: number,
  clientsUsed: typeof clients,
  send: (client: (typeof clients)[number]) => Promise<{ statusCode: number; body: string }>,
): Promise<number> {
  const elu = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  for (let round = 0; round < rounds; round++) {
    const responses = await Promise.all(clientsUsed.map(send));
    for (const response of responses)
      if (response.statusCode !== 200) throw new Error(response.body);
  }
  const count = rounds * clientsUsed.length;
  const used = process.cpuUsage(cpu);
  cpuMs.push(((used.user + used.system) / 1000 / count).toFixed(2));
  return performance.eventLoopUtilization(elu).active / count;
}
const cpuMs: string[] = [];
const write = (client: (typeof clients)[number]) =>
  client.post(`/bookmark/${manuscript!.id}/reading`, batchOf());
const health = (client: (typeof clients)[number]) => client.get('/healthz');
await busyPerRequest(2, clients, write); // warm-up: every reader's access decision cached
await busyPerRequest(2, clients, health);

/** Writes and the floor, at once and alone: event-loop busy ms a request, and CPU ms. */
async function measureWrites() {
  const atOnce = await busyPerRequest(8, clients, write);
  const floor = await busyPerRequest(8, clients, health);
  const alone = await busyPerRequest(100, clients.slice(0, 1), write);
  const aloneFloor = await busyPerRequest(100, clients.slice(0, 1), health);
  return { atOnce, floor, alone, aloneFloor, cpu: cpuMs.slice(-4) };
}
const ms = (value: number) => value.toFixed(2);
const ratio = (value: number) => ms(value / TARGET_WRITE_MS);
function printWrites(label: string, run: Awaited<ReturnType<typeof measureWrites>>) {
  const [writeCpu, floorCpu, aloneCpu, aloneFloorCpu] = run.cpu;
  console.log(`\n${label}`);
  console.log(
    `  ${WAVE} readers at once: ${ms(run.atOnce)} ms a write (target < ${TARGET_WRITE_MS} ms: ratio ${ratio(run.atOnce)});` +
      ` floor (GET /healthz) ${ms(run.floor)} ms (ratio ${ratio(run.floor)}); the write itself ${ms(run.atOnce - run.floor)} ms`,
  );
  console.log(
    `  one reader alone (nothing to share its statement with; not the target's case): ${ms(run.alone)} ms a write;` +
      ` floor ${ms(run.aloneFloor)} ms (ratio ${ratio(run.aloneFloor)}); the write itself ${ms(run.alone - run.aloneFloor)} ms`,
  );
  console.log(
    `  CPU ms a request: write ${writeCpu} (floor ${floorCpu}) at once; alone ${aloneCpu} (floor ${aloneFloorCpu})`,
  );
}

// Before this session's work on the floor (recorded on the shared machine, same bench):
console.log(
  '\nrecorded before the request-floor work: at once 2.60 ms a write, floor 2.80 ms;' +
    ' alone 9.4 ms a write (PGlite runs in this thread, so all of this includes the database)',
);
await changeListenerOf(test.ctx).start();
printWrites('now (session cache on):', await measureWrites());
// The same requests with the session cache closed: each reads its session from the database again.
sessionCacheOf(test.ctx).close();
printWrites('the session cache off (every request reads its session):', await measureWrites());
console.log('\n(The machine is shared: these numbers are noisy.)');
await test.close();
