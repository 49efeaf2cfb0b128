// The Word export of all feedback on the ~150k-word test novel: 2,000 comments on passages
// spread through the book and 1,000 replies, built in its worker thread as the job does.
//   npx tsx bench/export-docx.bench.ts [comments=2000] [replies=1000]
// Prints the time, the process's peak RSS over its baseline (the worker runs in this process),
// the worst event-loop stall while the worker ran (the point of the worker), and each against
// its budget (< 5 s, < 300 MB). Reads the file back to check every comment is in it.
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { buildBook } from './fixtures/book.ts';
import { toMarkdown } from './fixtures/writers.ts';
import { convertDocument } from '../server/src/conversion/index.ts';
import { documentText } from '../server/src/modules/comments/document-text.ts';
import { buildDocxInWorker } from '../server/src/modules/exports/docx-export.ts';
import { packagesOutside } from '../server/scripts/packages-outside.mjs';
import type {
  ExportComment,
  ExportNote,
  FeedbackData,
} from '../server/src/modules/exports/feedback-data.ts';
import { readDocx } from '../server/src/modules/exports/test-docx.ts';

const commentCount = Number(process.argv[2] ?? 2000);
const replyCount = Number(process.argv[3] ?? 1000);
const BUDGET_SECONDS = 5;
const BUDGET_MB = 300;

const book = await convertDocument(Buffer.from(toMarkdown(buildBook('big'))), 'md');
const doc = documentText(book.html);

// Deterministic passages: 2–12 words from paragraphs through the whole book.
let seed = 7;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const note = (id: number, text: string): ExportNote => ({
  id,
  author: `Reader ${id % 40}`,
  initials: 'R',
  date: new Date(Date.UTC(2026, 0, 1, 0, id)).toISOString(),
  text,
  votes: id % 5,
  reactions: id % 3 === 0 ? '👍 2; ❤️ 1' : '',
  resolved: id % 7 === 0,
  moderationHidden: id % 97 === 0,
  moderationReason: null,
});
const paragraphs = doc.blocks.filter((block) => block.end - block.start > 80);
const threads: FeedbackData['threads'] = [];
let nextId = 1;
for (let index = 0; index < commentCount; index++) {
  const block = paragraphs[Math.floor((index / commentCount) * paragraphs.length)]!;
  const start = block.start + Math.floor(random() * 30);
  const end = Math.min(block.end, start + 10 + Math.floor(random() * 60));
  const comment: ExportComment = {
    ...note(nextId++, `Comment ${index}: this passage slows the chapter down for me.`),
    replies: [],
  };
  threads.push({
    selectionId: `sel-${index}`,
    start,
    end,
    quote: doc.text.slice(start, end),
    chapter: '',
    comments: [comment],
  });
}
for (let index = 0; index < replyCount; index++) {
  const thread = threads[Math.floor(random() * threads.length)]!;
  thread.comments[0]!.replies.push(note(nextId++, `Reply ${index}: I felt the same.`));
}
const data: FeedbackData = {
  title: book.title ?? 'Novel',
  author: 'Author',
  html: book.html,
  text: doc.text,
  blocks: doc.blocks,
  toc: book.toc,
  threads,
};

// The worker as `npm start` runs it: bundled by esbuild (as server/scripts/build.mjs does), not
// compiled by tsx at its start.
const outdir = await mkdtemp(path.join(tmpdir(), 'export-bench-'));
await build({
  entryPoints: { 'docx-export-worker': 'server/src/modules/exports/docx-worker.ts' },
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  plugins: [packagesOutside],
});
// Bare imports resolve from the folder of the file: put the bundle where node_modules is found.
const workerFile = path.resolve('server/dist-bench-docx-export-worker.mjs');
await copyFile(path.join(outdir, 'docx-export-worker.mjs'), workerFile);

global.gc?.();
const baseline = process.memoryUsage().rss;
let peak = baseline;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 20);
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
const started = performance.now();
const bytes = await buildDocxInWorker(data, undefined, pathToFileURL(workerFile));
const seconds = (performance.now() - started) / 1000;
loop.disable();
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
const peakMb = (peak - baseline) / 2 ** 20;

const read = readDocx(bytes);
const expected = commentCount + replyCount;
console.log(
  `novel: ${book.words} words, ${doc.blocks.length} blocks; ${commentCount} comments + ${replyCount} replies`,
);
console.log(
  `docx: ${(bytes.byteLength / 2 ** 20).toFixed(1)} MB, ${read.comments.size}/${expected} Word comments read back`,
);
console.log(
  `time ${seconds.toFixed(2)} s (budget ${BUDGET_SECONDS} s, ratio ${(seconds / BUDGET_SECONDS).toFixed(2)}); ` +
    `peak RSS +${peakMb.toFixed(0)} MB (budget ${BUDGET_MB} MB, ratio ${(peakMb / BUDGET_MB).toFixed(2)}); ` +
    `worst event-loop stall ${(loop.max / 1e6).toFixed(0)} ms`,
);
if (read.comments.size !== expected) process.exitCode = 1;
await rm(workerFile, { force: true });
await rm(outdir, { recursive: true, force: true });

// The same build in this thread, to tell the work from the worker's start (tsx, module loading).
if (process.env.EXPORT_BENCH_INLINE) {
  const { buildFeedbackDocx } = await import('../server/src/modules/exports/docx-build.ts');
  const inlineStarted = performance.now();
  await buildFeedbackDocx(data, (share) => {
    if (process.env.EXPORT_BENCH_INLINE === 'progress') {
      console.log(
        `  ${(share * 100).toFixed(0)} % at ${((performance.now() - inlineStarted) / 1000).toFixed(2)} s`,
      );
    }
  });
  console.log(`inline build: ${((performance.now() - inlineStarted) / 1000).toFixed(2)} s`);
}
