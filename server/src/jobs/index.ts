import { convertDocumentJob } from './convert-document.ts';
import type { JobQueue } from './queue.ts';

/** Every background job the server runs. */
export const JOBS = [convertDocumentJob] as const;

/** Declares every job on the queue (before it starts). */
export function defineJobs(queue: JobQueue): void {
  for (const job of JOBS) queue.define(job);
}
