import { Worker } from 'node:worker_threads';
import { runningFromBundle } from '../../paths.ts';
import type { FeedbackData } from './feedback-data.ts';

// From the bundle (dist/server.cjs) the worker is dist/docx-export-worker.mjs; from the sources,
// the entry beside this file.
const WORKER_URL = new URL(
  runningFromBundle ? './docx-export-worker.mjs' : './docx-worker-entry.mjs',
  import.meta.url,
);

/** A DOCX export stopped after this long (a runaway, not a book: a book takes a few seconds). */
const TIMEOUT_MS = 120_000;

/**
 * Builds the feedback DOCX in a worker thread of its own, so the event loop never waits on it;
 * `onProgress` gets 0…1 as the worker reports.
 */
export function buildDocxInWorker(
  data: FeedbackData,
  onProgress: (share: number) => void = () => undefined,
  /** The benchmark passes the bundled worker, which production runs. */
  workerUrl: URL = WORKER_URL,
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl, { workerData: data });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error('the DOCX export took too long'));
    }, TIMEOUT_MS);
    const finish = () => {
      clearTimeout(timer);
      void worker.terminate();
    };
    worker.on('message', (message: { progress?: number; bytes?: Uint8Array; error?: string }) => {
      if (message.progress !== undefined) onProgress(message.progress);
      else if (message.bytes) {
        finish();
        resolve(message.bytes);
      } else {
        finish();
        reject(new Error(message.error ?? 'the DOCX export failed'));
      }
    });
    worker.on('error', (error) => {
      finish();
      reject(error);
    });
    worker.on('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`the DOCX worker stopped (${code})`));
    });
  });
}
