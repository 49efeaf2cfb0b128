import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONVERSIONS_WAITING_PER_USER, MESSAGES } from '@margins/common';
import { DEFAULT_JOB_SETTINGS } from '../../config.ts';
import { schema } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { loggedInClient } from '../../test/factories.ts';
import { postFile, waitForState } from './test-helpers.ts';
import { wordsAtLeast } from './word-limit.ts';

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp({
    jobs: { ...DEFAULT_JOB_SETTINGS, pollingSeconds: 0.5 },
    wordLimitFree: 50_000_000,
  });
});
afterAll(async () => {
  await test?.close();
});

/** A long plain-text book (~1.3 MB, 200,000 words): a conversion that takes a while. */
function longBook(seed: number): string {
  const sentence = `Chapter ${seed} and the harbour lamps burned low while the keeper counted ships. `;
  const paragraph = sentence.repeat(20) + '\n\n';
  return paragraph.repeat(Math.ceil(200_000 / (20 * 14)));
}

const FORTY_WORDS =
  'The tide came in slowly over the grey stones, and the keeper watched it rise from the ' +
  'window of the lamp room, counting the boats that had not come home yet, and waiting for ' +
  'the last light of the evening to go.';

async function inFlightOf(userId: number): Promise<number> {
  const [row] = await test.ctx.db
    .select({ n: count() })
    .from(schema.documentConversions)
    .where(
      and(
        eq(schema.documentConversions.userId, userId),
        inArray(schema.documentConversions.status, ['PENDING', 'PROGRESS']),
      ),
    );
  return row!.n;
}

describe('fair conversions', () => {
  it("one author's full queue does not hold up another author's small upload", async () => {
    const greedy = await loggedInClient(test);
    const other = await loggedInClient(test);

    // The greedy author fills their queue: the first CONVERSIONS_WAITING_PER_USER are taken,
    // then uploads are refused while that many wait (one of them may finish meanwhile on a fast
    // database, making room for one more: so post until refused, within a bound).
    let refused: Awaited<ReturnType<typeof postFile>> | undefined;
    for (let index = 0; index < CONVERSIONS_WAITING_PER_USER * 3 && !refused; index++) {
      const response = await postFile(
        greedy.client,
        '/manuscript/document',
        `book-${index}.txt`,
        longBook(index),
      );
      if (index >= CONVERSIONS_WAITING_PER_USER && response.statusCode === 429) refused = response;
      else expect(response.statusCode, response.body).toBe(200);
    }
    expect(refused?.statusCode).toBe(429);
    expect(refused!.json().error).toBe(
      MESSAGES.tooManyUploadsWaiting(CONVERSIONS_WAITING_PER_USER),
    );
    expect(await inFlightOf(greedy.user.id)).toBeLessThanOrEqual(CONVERSIONS_WAITING_PER_USER);

    const started = Date.now();
    const small = await postFile(other.client, '/manuscript/document', 'small.txt', FORTY_WORDS);
    expect(small.statusCode, small.body).toBe(200);
    const state = await waitForState(other.client, small.json().process_id, 10_000);
    expect(state.status).toBe('SUCCESS');
    expect(Date.now() - started).toBeLessThan(10_000);
    // It went ahead of the greedy author's queue, not after it.
    expect(await inFlightOf(greedy.user.id)).toBeGreaterThanOrEqual(
      CONVERSIONS_WAITING_PER_USER - 3,
    );
  }, 120_000);

  it('refuses before queuing an upload whose size alone is over the word limit', async () => {
    const limited = await createTestApp({ wordLimitFree: 3000 });
    try {
      const author = await loggedInClient(limited);
      const book = longBook(1).slice(0, 400_000);
      expect(wordsAtLeast('txt', Buffer.byteLength(book))).toBeGreaterThan(3000);
      const response = await postFile(author.client, '/manuscript/document', 'big.txt', book);
      expect(response.statusCode).toBe(413);
      expect(response.json().error).toBe(MESSAGES.overWordLimit);
      const [row] = await limited.ctx.db
        .select({ n: count() })
        .from(schema.manuscripts)
        .where(eq(schema.manuscripts.userId, author.user.id));
      expect(row!.n).toBe(0);
      const fits = await postFile(author.client, '/manuscript/document', 'small.txt', FORTY_WORDS);
      expect(fits.statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  }, 60_000);

  it('estimates only from plain formats, and low', () => {
    expect(wordsAtLeast('docx', 10_000_000)).toBe(0);
    expect(wordsAtLeast('html', 10_000_000)).toBe(0);
    // English runs ~6 bytes a word: the estimate stays far below the real count.
    expect(wordsAtLeast('txt', Buffer.byteLength(FORTY_WORDS))).toBeLessThan(40 / 5);
  });
});
