// Throwaway screenshot script (not committed): node e2e/.shoot4.mjs
import { chromium } from '@playwright/test';
const BASE = 'http://127.0.0.1:3104';
const PW = JSON.parse(process.env.PW);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--disable-quic','--disable-background-networking'] });

async function login(context, email) {
  const page = await context.newPage();
  await page.goto(BASE + '/');
  await context.addCookies([{ name: 'cookie-accept', value: '1', url: BASE }]);
  await page.evaluate(() => localStorage.setItem('cookie-accept', 'true'));
  const csrf = (await context.cookies()).find((c) => c.name === 'csrf_token')?.value;
  const r = await page.request.post(BASE + '/auth/login', { data: { email, password: PW[email] }, headers: { 'x-csrf-token': csrf } });
  if (!r.ok()) throw new Error('login ' + r.status() + (await r.text()));
  return page;
}
async function findManuscript(page, title) {
  const r = await page.request.get(BASE + '/discover/', { headers: { accept: 'application/json' } });
  return r;
}
const mode = process.argv[2] ?? 'light';
const width = Number(process.argv[3] ?? 1440);
const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: mode === 'dark' ? 'dark' : 'light', deviceScaleFactor: 1 });
const page = await login(context, process.env.EMAIL ?? 'june@margins.local');
await page.evaluate((m) => localStorage.setItem('ms-theme-pref', m), mode);
page.on('console', (msg) => { if (msg.type() === 'error' || msg.text().includes('[margins]')) console.log('console:', msg.text()); });
page.on('pageerror', (e) => console.log('pageerror', e.message));
await page.goto(BASE + (process.env.PATH_ ?? '/manuscript/document/reader/1'));
await page.waitForTimeout(1500);
await page.screenshot({ path: `/tmp/shots4/${process.env.NAME ?? 'reader'}-${mode}-${width}.png`, fullPage: false });
if (process.env.TOMARK) { await page.evaluate((n) => { const m = document.querySelectorAll('mark.hl')[Number(n)]; window.scrollTo(0, m.getBoundingClientRect().top + scrollY - 300); }, process.env.TOMARK); await page.waitForTimeout(900); await page.screenshot({ path: `/tmp/shots4/${process.env.NAME ?? 'reader'}-${mode}-${width}-mark.png` }); }
if (process.env.SCROLL) { await page.mouse.wheel(0, Number(process.env.SCROLL)); await page.waitForTimeout(800); await page.screenshot({ path: `/tmp/shots4/${process.env.NAME ?? 'reader'}-${mode}-${width}-scrolled.png` }); }
console.log(await page.evaluate(() => ({ hl: document.querySelectorAll('mark.hl').length, ms: document.querySelector('.reader-box')?.dataset.highlightMs, threads: document.querySelectorAll('[data-thread]').length, conn: document.querySelector('[data-connection]')?.dataset.connection })));
await browser.close();
