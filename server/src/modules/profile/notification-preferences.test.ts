import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@margins/common';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import { wantsNotification } from './service.ts';
import { clientFor } from './testing.ts';

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => test?.close());

const ALL_ON = {
  invited_to_document: ['email'],
  received_approval: ['email'],
  reader_needs_approval: ['email'],
  reminders: ['email'],
  comment_replies: ['email'],
};
const PATH = '/profile/notification/preferences';

describe('GET /profile/notification/preferences', () => {
  it('answers every key on email when nothing is stored', async () => {
    const { client } = await clientFor(test);
    const response = await client.get(PATH);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ notification_preferences: ALL_ON });
  });

  it('renders the current-profile page on the notifications tab', async () => {
    const { client, user } = await clientFor(test);
    const response = await client.get(PATH, { headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(200);
    const json = /<script id="page-config" type="application\/json">(.*?)<\/script>/s.exec(
      response.body,
    )![1]!;
    const config = JSON.parse(json);
    expect(config.page).toBe('current-profile');
    expect(config.data).toMatchObject({
      tab: 'notifications',
      user: { id: user.id },
      notification_preferences: ALL_ON,
    });
  });

  it('sends a logged-out browser to log in, and answers 401 to JSON', async () => {
    const page = await new TestClient(test.app).get(PATH, { headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe(`/auth/login?next=${PATH}`);
    const json = await new TestClient(test.app).get(PATH);
    expect(json.statusCode).toBe(401);
  });
});

describe('POST /profile/notification/preferences', () => {
  it('saves the given keys, keeps the others, and answers the whole map', async () => {
    const { client, user } = await clientFor(test);
    const first = await client.post(PATH, { reminders: [], received_approval: ['email'] });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ notification_preferences: { ...ALL_ON, reminders: [] } });

    const second = await client.post(PATH, { invited_to_document: [] });
    expect(second.json()).toEqual({
      notification_preferences: { ...ALL_ON, reminders: [], invited_to_document: [] },
    });
    const read = await client.get(PATH);
    expect(read.json()).toEqual(second.json());

    expect(await wantsNotification(test.ctx.db, user.id, 'reminders')).toBe(false);
    expect(await wantsNotification(test.ctx.db, user.id, 'invited_to_document')).toBe(false);
    expect(await wantsNotification(test.ctx.db, user.id, 'received_approval')).toBe(true);
    expect(await wantsNotification(test.ctx.db, user.id, 'reader_needs_approval')).toBe(true);

    const back = await client.post(PATH, { reminders: ['email', 'email'] });
    expect(back.json().notification_preferences.reminders).toEqual(['email']);
  });

  it('refuses an unknown key', async () => {
    const { client } = await clientFor(test);
    const response = await client.post(PATH, { reminders: [], newsletter: ['email'] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: MESSAGES.checkFormFields,
      errors: { _: ['Unknown preference: newsletter.'] },
    });
    expect((await client.get(PATH)).json()).toEqual({ notification_preferences: ALL_ON });
  });

  it('refuses an unknown channel and a value that is not a list', async () => {
    const { client } = await clientFor(test);
    const sms = await client.post(PATH, { reminders: ['sms'] });
    expect(sms.statusCode).toBe(400);
    expect(sms.json()).toEqual({
      error: MESSAGES.checkFormFields,
      errors: { reminders: ['The only channel is email.'] },
    });
    const notList = await client.post(PATH, { reminders: 'email' });
    expect(notList.statusCode).toBe(400);
    expect(Object.keys(notList.json().errors)).toEqual(['reminders']);
  });

  it('changes only the caller’s preferences', async () => {
    const other = await buildUser(test.ctx.db);
    const { client } = await clientFor(test);
    await client.post(PATH, { reminders: [], user_id: other.id } as object);
    await client.post(PATH, { reminders: [] });
    expect(await wantsNotification(test.ctx.db, other.id, 'reminders')).toBe(true);
  });

  it('needs a login and the CSRF header', async () => {
    const loggedOut = await new TestClient(test.app).post(PATH, { reminders: [] });
    expect(loggedOut.statusCode).toBe(401);
    const { client, user } = await clientFor(test);
    const noCsrf = await client.post(PATH, { reminders: [] }, { csrf: false });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json()).toEqual({ error: MESSAGES.csrfRefused });
    expect(await wantsNotification(test.ctx.db, user.id, 'reminders')).toBe(true);
  });
});

describe('wantsNotification', () => {
  it('is true for every key of a user with nothing stored', async () => {
    const user = await buildUser(test.ctx.db);
    for (const key of [
      'invited_to_document',
      'received_approval',
      'reader_needs_approval',
      'reminders',
      'comment_replies',
    ] as const) {
      expect(await wantsNotification(test.ctx.db, user.id, key)).toBe(true);
    }
  });
});
