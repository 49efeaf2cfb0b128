// Throwaway (not committed): a 150k-word manuscript with 2,000 highlighted comments, then the
// reader's anchoring + drawing time in Chromium.
import { readFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
const BASE = 'http://127.0.0.1:3104';
const PW = JSON.parse(process.env.PW);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--disable-quic','--disable-background-networking'] });
const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
const page = await context.newPage();
await page.goto(BASE + '/');
await page.evaluate(() => localStorage.setItem('cookie-accept', 'true'));
const csrf = () => context.cookies().then((c) => c.find((x) => x.name === 'csrf_token').value);
let r = await page.request.post(BASE + '/auth/login', { data: { email: 'ada@margins.local', password: PW['ada@margins.local'] }, headers: { 'x-csrf-token': await csrf() } });
if (!r.ok()) throw new Error('login');
let id = Number(process.env.MID || 0);
if (!id) {
  r = await page.request.post(BASE + '/manuscript/document', { multipart: { docxfile: { name: 'book.docx', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: readFileSync('/work/main/bench/fixtures/out/book.docx') }, title: 'Bench book' }, headers: { 'x-csrf-token': await csrf() } });
  const up = await r.json(); console.log('upload', r.status(), up.manuscript?.id, up.process_id);
  id = up.manuscript.id;
  for (let i = 0; i < 120; i++) { const s = await (await page.request.get(BASE + '/manuscript/document/state/' + up.process_id, { headers: { accept: 'application/json' } })).json(); if (s.status !== 'PENDING' && s.status !== 'PROGRESS') { console.log('state', s.status); break; } await new Promise((res) => setTimeout(res, 1000)); }
  await page.goto(BASE + '/manuscript/document/reader/' + id);
  await page.waitForSelector('.reader-box');
  const made = await page.evaluate(async ({ id, token }) => {
    const text = document.querySelector('.reader-box').textContent;
    const jobs = [];
    for (let n = 0; n < 2000; n++) {
      let start = Math.floor((n / 2000) * (text.length - 200));
      while (/\s/.test(text[start])) start++;
      const end = start + 40 + (n % 60);
      jobs.push({ selection_id: 'bench-' + n + '-' + Math.random().toString(36).slice(2, 8), startPath: [], endPath: [], startOffset: 0, endOffset: 0, selectedText: text.slice(start, end), start, end });
    }
    let ok = 0; let i = 0;
    async function worker() { while (i < jobs.length) { const h = jobs[i++]; const res = await fetch('/comments/manuscript/' + id, { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': token }, body: JSON.stringify({ highlight: h, comment: 'A note on this passage (' + h.selection_id + ')' }) }); if (res.ok) ok++; else if (ok === 0) console.log(await res.text()); } }
    await Promise.all(Array.from({ length: 8 }, worker));
    return ok;
  }, { id, token: await csrf() });
  console.log('comments made', made);
}
const timings = [];
page.on('console', (m) => { if (m.text().includes('[margins]')) console.log(m.text()); });
for (let run = 0; run < 3; run++) {
  const t0 = Date.now();
  await page.goto(BASE + '/manuscript/document/reader/' + id);
  await page.waitForFunction(() => Number(document.querySelector('.reader-box')?.dataset.highlightCount) >= 2000, null, { timeout: 30000 });
  const info = await page.evaluate(() => ({ ms: document.querySelector('.reader-box').dataset.highlightMs, marks: document.querySelectorAll('mark.hl').length, cards: document.querySelectorAll('[data-thread]').length, words: document.querySelector('.reader-box').textContent.split(/\s+/).length, nav: performance.getEntriesByType('navigation')[0].domInteractive }));
  timings.push(info);
  console.log('run', run, JSON.stringify(info), 'wall', Date.now() - t0, 'ms');
}
// scroll to the middle and screenshot the margin with many cards
await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight / 2));
await page.waitForTimeout(600);
await page.screenshot({ path: '/tmp/shots4/bench-2000-middle.png' });
console.log('id', id);
await browser.close();
