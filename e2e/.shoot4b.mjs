// Throwaway: selection → Comment button → editor; private; flagged; report; phone drawer.
import { chromium } from '@playwright/test';
const BASE = 'http://127.0.0.1:3104';
const PW = JSON.parse(process.env.PW);
const mode = process.argv[2] ?? 'light';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--disable-quic','--disable-background-networking'] });
async function open(email, viewport, path, opts = {}) {
  const context = await browser.newContext({ viewport, colorScheme: mode, hasTouch: !!opts.touch, isMobile: !!opts.touch });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.log('pageerror', e.message));
  page.on('console', (m) => { if (m.type() === 'error' || m.text().includes('[margins]')) console.log('console:', m.text()); });
  await page.goto(BASE + '/');
  await page.evaluate((m) => { localStorage.setItem('cookie-accept', 'true'); localStorage.setItem('ms-theme-pref', m); }, mode);
  const csrf = (await context.cookies()).find((c) => c.name === 'csrf_token')?.value;
  if (email) { const r = await page.request.post(BASE + '/auth/login', { data: { email, password: PW[email] }, headers: { 'x-csrf-token': csrf } }); if (!r.ok()) throw new Error('login'); }
  if (opts.route) await page.route(opts.route.url, opts.route.handler);
  await page.goto(BASE + path);
  await page.waitForTimeout(1200);
  return page;
}
async function selectIn(page, nth, from, to) {
  await page.evaluate(([nth, from, to]) => {
    const p = document.querySelectorAll('.reader-box > p')[nth];
    const w = document.createTreeWalker(p, NodeFilter.SHOW_TEXT); let t = w.nextNode(); while (t && t.data.length < to) t = w.nextNode();
    p.scrollIntoView({ block: 'center' });
    const r = document.createRange(); r.setStart(t, from); r.setEnd(t, to);
    const s = getSelection(); s.removeAllRanges(); s.addRange(r);
  }, [nth, from, to]);
  await page.waitForTimeout(400);
}
const shot = (page, name) => page.screenshot({ path: `/tmp/shots4/${name}-${mode}.png` });
const what = process.argv[3] ?? 'all';

if (what === 'all' || what === 'editor') {
  const page = await open('sam@margins.local', { width: 1440, height: 900 }, '/manuscript/document/reader/1');
  await selectIn(page, 6, 0, 60);
  await shot(page, 'selection-button');
  await page.getByTestId('comment-selection').click();
  await page.waitForTimeout(500);
  await page.getByTestId('comment-text').fill('This sentence is lovely, but I tripped on the second clause.');
  await shot(page, 'editor-open');
  // try to open a second editor
  await selectIn(page, 8, 0, 40);
  await page.keyboard.press('Control+Alt+M');
  await page.waitForTimeout(500);
  await shot(page, 'editor-second-refused');
  await page.close();
}
if (what === 'all' || what === 'private') {
  const page = await open('june@margins.local', { width: 1440, height: 900 }, '/manuscript/document/reader/2');
  await page.evaluate(() => { const m = document.querySelector('mark.hl'); m && window.scrollTo(0, m.getBoundingClientRect().top + scrollY - 250); });
  await page.waitForTimeout(800);
  await shot(page, 'private');
  await page.close();
}
if (what === 'all' || what === 'flagged') {
  const page = await open('june@margins.local', { width: 1440, height: 900 }, '/manuscript/document/reader/1', { route: { url: '**/comments/manuscript/*', handler: async (route) => {
    const res = await route.fetch(); const body = await res.json();
    if (body.comments[1]) { body.comments[1].moderation_flag = true; body.comments[1].moderation_reason = 'Spoils the ending'; }
    if (body.comments[3]) { body.comments[3].moderation_flag = true; body.comments[3].moderation_reason = null; }
    await route.fulfill({ response: res, json: body });
  } } });
  await page.evaluate(() => { const m = document.querySelector('mark.hl'); window.scrollTo(0, m.getBoundingClientRect().top + scrollY - 250); });
  await page.waitForTimeout(800);
  await shot(page, 'flagged');
  await page.locator('[data-comment-id]').filter({ hasText: 'Thank you' }).getByRole('button', { name: 'Report' }).click().catch(() => {});
  await page.getByRole('button', { name: 'Report' }).nth(1).click().catch(() => {});
  await page.waitForTimeout(600);
  await shot(page, 'report-modal');
  await page.getByRole('button', { name: 'Send report' }).click().catch(() => {});
  await page.waitForTimeout(600);
  await shot(page, 'report-400');
  await page.close();
}
if (what === 'all' || what === 'phone') {
  const page = await open('june@margins.local', { width: 390, height: 844 }, '/manuscript/document/reader/1', { touch: true });
  await page.evaluate(() => { const m = document.querySelector('mark.hl'); window.scrollTo(0, m.getBoundingClientRect().top + scrollY - 200); });
  await page.waitForTimeout(600);
  await shot(page, 'phone-reader');
  await page.locator('mark.hl').first().tap();
  await page.waitForTimeout(600);
  await shot(page, 'phone-drawer-thread');
  await page.getByRole('button', { name: /^All / }).click();
  await page.waitForTimeout(400);
  await shot(page, 'phone-drawer-all');
  await page.close();
}
if (what === 'all' || what === 'touch') {
  const page = await open('sam@margins.local', { width: 390, height: 844 }, '/manuscript/document/reader/1', { touch: true });
  await selectIn(page, 9, 0, 50);
  await page.waitForTimeout(300);
  await shot(page, 'phone-selection');
  await page.getByTestId('comment-selection').tap();
  await page.waitForTimeout(600);
  await page.getByTestId('comment-text').fill('On a phone, this reads a little long.');
  await shot(page, 'phone-editor');
  await page.getByRole('button', { name: 'Cancel' }).tap();
  await page.getByRole('button', { name: 'Discard' }).tap();
  await page.waitForTimeout(400);
  await page.close();
}
if (what === 'all' || what === 'anon') {
  const page = await open(null, { width: 1440, height: 900 }, '/manuscript/document/reader/1');
  await selectIn(page, 6, 0, 60);
  await shot(page, 'anonymous');
  await page.close();
}
await browser.close();
