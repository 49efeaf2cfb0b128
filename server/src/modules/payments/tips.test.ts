import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES } from '@margins/common/messages-payments';
import type { ReceivedTipsResponse, TipOfferResponse } from '@margins/common/schemas/payments';
import { buildUser, loggedInClient } from '../../test/factories.ts';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';
import { card } from './test-helpers.ts';

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => test.close());

async function offerFor(client: TestClient, manuscriptId: number): Promise<TipOfferResponse> {
  const response = await client.get(`/payments/tip-offer?manuscript_id=${manuscriptId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TipOfferResponse>();
}

describe('tips', () => {
  it('a reader tips a manuscript: thanks page, and the author sees it on the dashboard', async () => {
    const author = await buildUser(test.ctx.db, { displayName: 'Ada Author' });
    const manuscript = await buildManuscript(test.ctx.db, author, {
      title: 'Tipped tale',
      visibility: 'public',
    });
    const { client: reader, user: readerUser } = await loggedInClient(test);
    const { offer, author: shown } = await offerFor(reader, manuscript.id);
    expect(shown.display_name).toBe('Ada Author');
    expect(offer).toMatchObject({
      tipType: 'manuscript',
      tipFor: String(manuscript.id),
      nextUrl: `/manuscript/document/reader/${manuscript.id}`,
    });

    const start = await reader.post('/payments/checkout-session', { tipAmount: '7.50', ...offer });
    expect(start.statusCode, start.body).toBe(200);
    const sessionId = start.json().sessionUrl.split('/').pop();
    const paid = await reader.post(`/payments/local/checkout/${sessionId}/pay`, card());
    expect(paid.statusCode, paid.body).toBe(200);
    const back = await reader.get(`/payments/complete/${sessionId}`, {
      headers: { accept: 'text/html' },
    });
    expect(back.headers.location).toBe(`/payments/thanks/${sessionId}`);
    const thanks = await reader.get(`/payments/thanks/${sessionId}`, {
      headers: { accept: 'text/html' },
    });
    expect(thanks.body).toContain('"kind":"tip"');
    expect(thanks.body).toContain('Ada Author');

    const { client: authorClient } = await loggedInClient(test, author);
    const received = (
      await authorClient.get('/payments/tips/received')
    ).json<ReceivedTipsResponse>();
    expect(received.total).toBe(750);
    expect(received.tips[0]).toMatchObject({
      amount: 750,
      manuscript: { id: manuscript.id, title: 'Tipped tale' },
      from: { id: readerUser.id },
    });
    // Nobody else sees them: each author gets their own list.
    const mine = (await reader.get('/payments/tips/received')).json<ReceivedTipsResponse>();
    expect(mine.total).toBe(0);
  });

  it('bounds the amount on the server and reads it as typed', async () => {
    const author = await buildUser(test.ctx.db);
    const manuscript = await buildManuscript(test.ctx.db, author, { visibility: 'public' });
    const client = new TestClient(test.app);
    const { offer } = await offerFor(client, manuscript.id);
    const cases: [unknown, number, string | null][] = [
      ['0.99', 400, PAYMENT_MESSAGES.tipTooSmall('$1')],
      ['500.01', 400, PAYMENT_MESSAGES.tipTooLarge('$500')],
      ['-5', 400, PAYMENT_MESSAGES.tipNotANumber],
      ['five', 400, PAYMENT_MESSAGES.tipNotANumber],
      ['1e3', 400, PAYMENT_MESSAGES.tipNotANumber],
      ['$5', 200, null],
      [1, 200, null],
      ['500', 200, null],
    ];
    for (const [tipAmount, status, message] of cases) {
      const response = await client.post('/payments/checkout-session', { tipAmount, ...offer });
      expect(response.statusCode, String(tipAmount)).toBe(status);
      if (message) expect(response.json().errors.tipAmount).toEqual([message]);
    }
  });

  it('refuses a tip for another target than the signed one, and tips to oneself', async () => {
    const author = await buildUser(test.ctx.db);
    const manuscript = await buildManuscript(test.ctx.db, author, { visibility: 'public' });
    const other = await buildManuscript(test.ctx.db, author, { visibility: 'public' });
    const client = new TestClient(test.app);
    const { offer } = await offerFor(client, manuscript.id);
    const swapped = await client.post('/payments/checkout-session', {
      tipAmount: '5',
      ...offer,
      tipFor: String(other.id),
    });
    expect(swapped.statusCode).toBe(400);
    expect(swapped.json().errors.sig).toBeDefined();
    // The same signature spelt otherwise (padded: signing.test.ts has every other spelling).
    const padded = await client.post('/payments/checkout-session', {
      tipAmount: '5',
      ...offer,
      sig: `${offer.sig}=`,
    });
    expect(padded.statusCode).toBe(400);
    expect(padded.json().errors.sig).toBeDefined();

    const { client: self } = await loggedInClient(test, author);
    const selfOffer = await offerFor(self, manuscript.id);
    const own = await self.post('/payments/checkout-session', {
      tipAmount: '5',
      ...selfOffer.offer,
    });
    expect(own.json().errors.tipFor).toEqual([PAYMENT_MESSAGES.tipSelf]);
  });

  it('offers no tip for a manuscript the viewer may not open', async () => {
    const author = await buildUser(test.ctx.db);
    const hidden = await buildManuscript(test.ctx.db, author, { visibility: 'private' });
    const response = await new TestClient(test.app).get(
      `/payments/tip-offer?manuscript_id=${hidden.id}`,
    );
    expect(response.statusCode).toBe(404);
  });
});
