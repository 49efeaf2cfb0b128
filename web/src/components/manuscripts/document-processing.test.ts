import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES, type DocumentStateResponse } from '@margins/common';
import { ApiError } from '../../api/client.ts';
import {
  interpretState,
  pendingNotice,
  pollDocumentState,
  type ProcessingUpdate,
} from './document-processing.ts';

const pending = (): DocumentStateResponse => ({
  status: 'PENDING',
  message: 'Waiting for a helper',
  manuscript: null,
});

/** Runs the poller against a list of answers (the last one repeats), one poll a second. */
function startPolling(answers: Array<DocumentStateResponse | Error>) {
  const updates: ProcessingUpdate[] = [];
  let call = 0;
  const fetchState = vi.fn(async () => {
    const answer = answers[Math.min(call, answers.length - 1)];
    call += 1;
    if (answer instanceof Error) throw answer;
    return answer as DocumentStateResponse;
  });
  const controller = new AbortController();
  const done = pollDocumentState({
    processId: '3f1e8a52-0000-4000-8000-000000000001',
    fetchState,
    onUpdate: (update) => updates.push(update),
    signal: controller.signal,
  });
  done.catch(() => undefined);
  return { updates, fetchState, done, controller };
}

describe('the pending messages', () => {
  it('are silent below 10, busy from 10 to 29, longer from 30', () => {
    expect(pendingNotice(9)).toBeNull();
    expect(pendingNotice(10)).toBe(MESSAGES.helpersBusy);
    expect(pendingNotice(29)).toBe(MESSAGES.helpersBusy);
    expect(pendingNotice(30)).toBe(MESSAGES.takingLonger);
    expect(pendingNotice(59)).toBe(MESSAGES.takingLonger);
  });

  it('reads each status of the state call', () => {
    expect(interpretState(0, { ...pending(), status: 'PROGRESS' })).toEqual({
      kind: 'pending',
      count: 1,
      notice: null,
    });
    expect(interpretState(59, pending())).toEqual({
      kind: 'failed',
      reason: 'gave_up',
      message: MESSAGES.noBot,
    });
    expect(interpretState(3, { status: 'OVER_WORD_LIMIT', message: '', manuscript: null })).toEqual(
      { kind: 'failed', reason: 'over_word_limit', message: MESSAGES.overWordLimit },
    );
    expect(
      interpretState(3, {
        status: 'FAILURE',
        message: 'That file is not a DOCX.',
        manuscript: null,
      }),
    ).toEqual({ kind: 'failed', reason: 'failure', message: 'That file is not a DOCX.' });
    expect(interpretState(3, { status: 'FAILURE', message: '', manuscript: null })).toMatchObject({
      message: MESSAGES.processFailed,
    });
    // A status the client does not know is a failure too.
    expect(
      interpretState(3, {
        status: 'REVOKED' as DocumentStateResponse['status'],
        message: '',
        manuscript: null,
      }),
    ).toMatchObject({ kind: 'failed', reason: 'failure' });
  });
});

describe('pollDocumentState', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('polls every second: busy message at 10, longer at 30, gives up at 60', async () => {
    const { updates, fetchState, done } = startPolling([pending()]);

    await vi.advanceTimersByTimeAsync(999);
    expect(fetchState).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchState).toHaveBeenCalledTimes(1);

    await vi.advanceTimersByTimeAsync(8_000);
    expect(updates.at(-1)).toEqual({ kind: 'pending', count: 9, notice: null });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(updates.at(-1)).toEqual({ kind: 'pending', count: 10, notice: MESSAGES.helpersBusy });

    await vi.advanceTimersByTimeAsync(19_000);
    expect(updates.at(-1)).toMatchObject({ count: 29, notice: MESSAGES.helpersBusy });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(updates.at(-1)).toMatchObject({ count: 30, notice: MESSAGES.takingLonger });

    await vi.advanceTimersByTimeAsync(29_000);
    expect(updates.at(-1)).toMatchObject({ count: 59, notice: MESSAGES.takingLonger });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(updates.at(-1)).toEqual({ kind: 'failed', reason: 'gave_up', message: MESSAGES.noBot });
    await expect(done).resolves.toMatchObject({ kind: 'failed', message: MESSAGES.noBot });

    // It stopped: no more calls.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchState).toHaveBeenCalledTimes(60);
  });

  it('ends with the manuscript on SUCCESS', async () => {
    const manuscript = { id: 7 } as DocumentStateResponse['manuscript'];
    const { done, fetchState } = startPolling([
      pending(),
      { ...pending(), status: 'PROGRESS' },
      { status: 'SUCCESS', message: 'manuscript saved!', manuscript },
    ]);
    await vi.advanceTimersByTimeAsync(3_000);
    await expect(done).resolves.toEqual({ kind: 'success', manuscript, report: null });
    expect(fetchState).toHaveBeenCalledTimes(3);
  });

  it('ends with the word-limit message on OVER_WORD_LIMIT', async () => {
    const { done } = startPolling([
      pending(),
      { status: 'OVER_WORD_LIMIT', message: 'over', manuscript: null },
    ]);
    await vi.advanceTimersByTimeAsync(2_000);
    await expect(done).resolves.toMatchObject({ kind: 'failed', message: MESSAGES.overWordLimit });
  });

  it('counts a server hiccup as pending, and a 404 as a failure', async () => {
    const hiccup = startPolling([new ApiError(502, 'Bad status 502'), pending()]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(hiccup.updates).toEqual([
      { kind: 'pending', count: 1, notice: null },
      { kind: 'pending', count: 2, notice: null },
    ]);
    hiccup.controller.abort();

    const missing = startPolling([new ApiError(404, 'Not found.')]);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(missing.done).resolves.toMatchObject({
      kind: 'failed',
      message: MESSAGES.processFailed,
    });
  });

  it('stops when aborted', async () => {
    const { done, fetchState, controller } = startPolling([pending()]);
    await vi.advanceTimersByTimeAsync(2_000);
    controller.abort();
    await expect(done).rejects.toMatchObject({ name: 'AbortError' });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(fetchState).toHaveBeenCalledTimes(2);
  });
});
