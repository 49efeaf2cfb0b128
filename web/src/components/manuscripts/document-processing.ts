import {
  MESSAGES,
  UPLOAD_BUSY_AT,
  UPLOAD_GIVE_UP_AT,
  UPLOAD_LONGER_AT,
  UPLOAD_POLL_MS,
  type ConversionReport,
  type DocumentStateResponse,
  type Manuscript,
} from '@margins/common';
import { ApiError } from '../../api/client.ts';

/** What one answer of the state call means for the upload (SPEC §4). */
export type ProcessingUpdate =
  /** Still in the queue or converting; `count` answers so far said so. */
  | { kind: 'pending'; count: number; notice: string | null }
  | { kind: 'success'; manuscript: Manuscript | null; report: ConversionReport | null }
  | { kind: 'failed'; message: string; reason: 'over_word_limit' | 'failure' | 'gave_up' };

/** The message for a pending count: busy at 10–29, taking longer at 30–59, none before. */
export function pendingNotice(count: number): string | null {
  if (count >= UPLOAD_LONGER_AT) return MESSAGES.takingLonger;
  if (count >= UPLOAD_BUSY_AT) return MESSAGES.helpersBusy;
  return null;
}

/**
 * The next step after an answer, given how many pending answers came before it: PENDING and
 * PROGRESS count up (giving up at 60); SUCCESS is done; OVER_WORD_LIMIT and anything else fail.
 */
export function interpretState(
  previousCount: number,
  response: Pick<DocumentStateResponse, 'status' | 'message' | 'manuscript' | 'report'>,
): ProcessingUpdate {
  switch (response.status) {
    case 'PENDING':
    case 'PROGRESS':
      return stillPending(previousCount + 1);
    case 'SUCCESS':
      return { kind: 'success', manuscript: response.manuscript, report: response.report ?? null };
    case 'OVER_WORD_LIMIT':
      return { kind: 'failed', reason: 'over_word_limit', message: MESSAGES.overWordLimit };
    default:
      return {
        kind: 'failed',
        reason: 'failure',
        message: response.message?.trim() || MESSAGES.processFailed,
      };
  }
}

function stillPending(count: number): ProcessingUpdate {
  if (count >= UPLOAD_GIVE_UP_AT)
    return { kind: 'failed', reason: 'gave_up', message: MESSAGES.noBot };
  return { kind: 'pending', count, notice: pendingNotice(count) };
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('Stopped', 'AbortError'));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', handleAbort);
      resolve();
    }, ms);
    const handleAbort = () => {
      clearTimeout(timer);
      reject(new DOMException('Stopped', 'AbortError'));
    };
    signal?.addEventListener('abort', handleAbort, { once: true });
  });
}

/**
 * Polls the state call every UPLOAD_POLL_MS until the conversion ends, telling `onUpdate`
 * each step. A network or server error counts as one more pending answer (the next poll
 * may get through); a 4xx ends it as a failure. Resolves with the final update; rejects
 * with an AbortError when `signal` stops it.
 */
export async function pollDocumentState({
  processId,
  fetchState,
  onUpdate,
  signal,
}: {
  processId: string;
  fetchState: (processId: string, signal?: AbortSignal) => Promise<DocumentStateResponse>;
  onUpdate: (update: ProcessingUpdate) => void;
  signal?: AbortSignal;
}): Promise<ProcessingUpdate> {
  let count = 0;
  for (;;) {
    await wait(UPLOAD_POLL_MS, signal);
    let update: ProcessingUpdate;
    try {
      update = interpretState(count, await fetchState(processId, signal));
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
        update = { kind: 'failed', reason: 'failure', message: MESSAGES.processFailed };
      } else {
        update = stillPending(count + 1);
      }
    }
    if (signal?.aborted) throw new DOMException('Stopped', 'AbortError');
    onUpdate(update);
    if (update.kind !== 'pending') return update;
    count = update.count;
  }
}
