// Runs one format's conversion inside a worker thread, as production does (see conversion.bench.ts).
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import mammoth from 'mammoth';
import { convertDocument, type SourceFormat } from '../server/src/conversion/index.ts';

export interface WorkerTask {
  format: SourceFormat;
  path: string;
  /** A small document of the same format, converted first to load modules and warm the JIT. */
  warmUpPath: string | null;
}

export interface WorkerReport {
  format: SourceFormat;
  seconds: number;
  words: number;
  headings: number;
  images: number;
  htmlKb: number;
  rawMammothSeconds: number | null;
}

const seconds = (start: number) => (performance.now() - start) / 1000;
const task = workerData as WorkerTask;
const bytes = new Uint8Array(readFileSync(task.path));

// A production worker is long-lived: time the book, not the first module load and compilation.
if (task.warmUpPath !== null) {
  await convertDocument(new Uint8Array(readFileSync(task.warmUpPath)), task.format);
}

let best = Infinity;
let rawMammothSeconds: number | null = null;
let result = null;
// DOCX: alternate ours and raw mammoth, best of five each, so that neither JIT warm-up nor
// another process on the machine favours one side. Other formats: one run.
const rounds = task.format === 'docx' ? 5 : 1;
for (let round = 0; round < rounds; round += 1) {
  if (task.format === 'docx') {
    const rawStart = performance.now();
    await mammoth.convertToHtml({ buffer: Buffer.from(bytes) });
    rawMammothSeconds = Math.min(rawMammothSeconds ?? Infinity, seconds(rawStart));
  }
  const start = performance.now();
  result = await convertDocument(bytes, task.format);
  best = Math.min(best, seconds(start));
}
if (result === null) throw new Error('no conversion ran');

const report: WorkerReport = {
  format: task.format,
  seconds: best,
  words: result.words,
  headings: result.toc.length,
  images: result.images.length,
  htmlKb: Buffer.byteLength(result.html) / 1024,
  rawMammothSeconds,
};
parentPort?.postMessage(report);
