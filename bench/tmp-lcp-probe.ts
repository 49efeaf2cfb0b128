import { chromium } from '@playwright/test';
import { startReaderBook } from './reader-book.ts';

const port = Number(process.env.BENCH_PORT ?? 3211);
const server = await startReaderBook(port, 2000);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const runs = Number(process.argv[2] ?? 3);
const width = Number(process.argv[3] ?? 1279);
try {
  for (let run = 0; run < runs; run++) {
    const context = await browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });
    await context.addCookies([{ ...server.cookie, domain: '127.0.0.1', path: '/', httpOnly: true, sameSite: 'Lax' }]);
    await context.addInitScript({ content: `
      try { localStorage.setItem('cookie-accept', 'true'); } catch {}
      window.__p = { lcp: [], events: [] };
      new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__p.lcp.push({ t: Math.round(e.renderTime || e.startTime), size: e.size, el: e.element ? (e.element.tagName + '.' + (e.element.className||'').toString().slice(0,30) + ' ' + (e.element.textContent||'').slice(0,30)) : String(e.url).slice(-40), inFirst: !!(e.element && e.element.closest && e.element.closest('[data-first-screen]')) }); }).observe({ type: 'largest-contentful-paint', buffered: true });
      new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__p.events.push(e.name + ' ' + Math.round(e.startTime)); }).observe({ type: 'paint', buffered: true });
      document.addEventListener('DOMContentLoaded', () => window.__p.events.push('DCL ' + Math.round(performance.now())));
      const mo = new MutationObserver(() => { if (document.querySelector('#root') && document.querySelector('#root').children.length && !document.querySelector('[data-first-screen]') && !window.__p.replaced) { window.__p.replaced = Math.round(performance.now()); window.__p.events.push('replaced ' + window.__p.replaced); } if (document.querySelector('[data-first-screen]') && !window.__p.fs) { window.__p.fs = 1; window.__p.events.push('first-screen in DOM ' + Math.round(performance.now())); } });
      mo.observe(document, { childList: true, subtree: true });
      document.fonts && document.fonts.addEventListener('loadingdone', (e) => window.__p.events.push('fonts ' + Math.round(performance.now()) + ' ' + e.fontfaces.map(f => f.family + ' ' + f.weight + ' ' + f.style).join(',')));
      requestAnimationFrame(function f() { if (!window.__p.raf) { window.__p.raf = Math.round(performance.now()); window.__p.events.push('first rAF ' + window.__p.raf); } });
    ` });
    const page = await context.newPage();
    if (process.env.NOJS) await page.route('**/*.js', (r) => r.abort());
    await page.goto(`${server.baseUrl}/manuscript/document/reader/${server.manuscriptId}`);
    await page.waitForTimeout(5000);
    const p = (await page.evaluate('window.__p')) as { lcp: unknown[]; events: string[] };
    console.log(`run ${run}:`, p.events.join(' | '));
    for (const e of p.lcp) console.log('   lcp', JSON.stringify(e));
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
process.exit(0);
