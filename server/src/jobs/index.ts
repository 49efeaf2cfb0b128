import { deliverMailJob } from '../modules/notifications/mail-job.ts';
import { convertDocumentJob } from '../modules/manuscripts/conversion-job.ts';
import { dispatchEventsJob } from '../events/sweep-job.ts';
import { readingRemindersJob } from '../modules/insights/reminders.ts';
import { exportFeedbackJob } from '../modules/exports/export-job.ts';
import type { JobDefinition } from './definition.ts';
import type { JobQueue } from './queue.ts';

/** Every background job the server runs. */
export const JOBS: readonly JobDefinition[] = [
  convertDocumentJob,
  deliverMailJob,
  dispatchEventsJob,
  readingRemindersJob,
  exportFeedbackJob,
];

/** Declares every job on the queue (before it starts). */
export function defineJobs(queue: JobQueue): void {
  for (const job of JOBS) queue.define(job);
}
