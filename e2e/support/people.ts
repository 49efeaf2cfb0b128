import type { Browser, BrowserContext, Page } from '@playwright/test';
import { expect, linkIn, uniqueEmail, uniqueHandle } from './fixtures.ts';
import { Mailbox } from './mailbox.ts';

export const PASSWORD = 'a long enough passphrase';

/** The csrf_token cookie of a context (every write carries it as x-csrf-token). */
export async function csrfOf(context: BrowserContext): Promise<string> {
  const cookie = (await context.cookies()).find((candidate) => candidate.name === 'csrf_token');
  if (!cookie) throw new Error('no csrf_token cookie yet');
  return cookie.value;
}

/**
 * A new browser with a new, verified, completed account logged in. Sign-ups are limited to 20
 * an hour per address, and every e2e test signs up from 127.0.0.1: reuse a person across the
 * steps of a test rather than signing up per step (the whole suite makes about 13).
 */
export async function newPerson(browser: Browser, name: string): Promise<Page> {
  const context = await browser.newContext();
  // The cookie notice stays out of the way (its own spec covers it).
  await context.addInitScript(() => window.localStorage.setItem('cookie-accept', 'true'));
  const page = await context.newPage();
  const mailbox = new Mailbox(page.request);
  await page.goto('/');
  const email = uniqueEmail(name.split(' ')[0]!.toLowerCase());
  const signup = await page.request.post('/auth/signup', {
    data: { email, password: PASSWORD, display_name: name },
    headers: { 'x-csrf-token': await csrfOf(context) },
  });
  expect(signup.ok(), await signup.text()).toBe(true);
  await page.goto(linkIn(await mailbox.waitFor(email, 'Verify your e-mail'), '/auth/verify'));
  const complete = await page.request.post('/auth/complete/signup', {
    data: { handle: uniqueHandle(name.split(' ')[0]!.toLowerCase()), display_name: name },
    headers: { 'x-csrf-token': await csrfOf(context) },
  });
  expect(complete.ok(), await complete.text()).toBe(true);
  return page;
}

export interface UploadFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** Uploads a file as a public manuscript and waits until it is inked; its id. */
export async function uploadPublicManuscript(
  page: Page,
  title: string,
  file: UploadFile,
): Promise<number> {
  const upload = await page.request.post('/manuscript/document', {
    multipart: { docxfile: file, title, visibility: 'public' },
    headers: { 'x-csrf-token': await csrfOf(page.context()) },
  });
  expect(upload.ok(), await upload.text()).toBe(true);
  const { manuscript, process_id: processId } = (await upload.json()) as {
    manuscript: { id: number };
    process_id: string;
  };
  await expect
    .poll(
      async () => {
        const state = await page.request.get(`/manuscript/document/state/${processId}`, {
          headers: { accept: 'application/json' },
        });
        return ((await state.json()) as { status: string }).status;
      },
      { timeout: 45_000, message: 'the manuscript is inked' },
    )
    .toBe('SUCCESS');
  return manuscript.id;
}
