// The DOCX export's worker thread: builds the document off the event loop and hands the bytes
// back (transferred, not copied). Messages: {progress} while it works, then {bytes} or {error}.
import { parentPort, workerData } from 'node:worker_threads';
import { buildFeedbackDocx } from './docx-build.ts';
import type { FeedbackData } from './feedback-data.ts';

const port = parentPort!;
try {
  let last = 0;
  const bytes = await buildFeedbackDocx(workerData as FeedbackData, (share) => {
    if (share - last < 0.05 && share < 1) return;
    last = share;
    port.postMessage({ progress: share });
  });
  port.postMessage({ bytes }, [bytes.buffer as ArrayBuffer]);
} catch (error) {
  port.postMessage({ error: error instanceof Error ? error.message : String(error) });
}
