// Profiles one scroll of the reader benchmark's book (issue 18): loads the reader at a width,
// records a CPU profile (and frame times) while scrolling part of the book, prints the
// functions with the most self time.
//   npm run build -w web && BENCH_PORT=3211 npx tsx bench/reader-profile.ts [width=390] [frames=300] [trace|load] [settled]
import { mkdirSync, writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { startReaderBook } from './reader-book.ts';

/** Where the profile and the trace go (PROFILE_DIR, else /tmp/t1prof), made when missing. */
const OUT = process.env.PROFILE_DIR ?? '/tmp/t1prof';
mkdirSync(OUT, { recursive: true });

const width = Number(process.argv[2] ?? 390);
const frameCount = Number(process.argv[3] ?? 300);
const port = Number(process.env.BENCH_PORT ?? 3160);
const server = await startReaderBook(port, 2000);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const context = await browser.newContext({
    viewport: { width, height: 900 },
    deviceScaleFactor: 1,
    bypassCSP: true,
  });
  await context.addCookies([
    { ...server.cookie, domain: '127.0.0.1', path: '/', httpOnly: true, sameSite: 'Lax' },
  ]);
  await context.addInitScript({
    content: "try { localStorage.setItem('cookie-accept', 'true'); } catch {}",
  });
  const page = await context.newPage();
  const tracingLoad = process.argv.includes('load');
  if (tracingLoad) await browser.startTracing(page, { path: `${OUT}/trace.json` });
  await page.goto(`${server.baseUrl}/manuscript/document/reader/${server.manuscriptId}`);
  await page.waitForFunction(
    "performance.getEntriesByName('margins:highlights-painted').length > 0",
    undefined,
    { timeout: 120_000 },
  );
  if (process.argv.includes('settled')) {
    await page.waitForFunction(
      "performance.getEntriesByName('margins:layout-done').length > 0",
      undefined,
      { timeout: 120_000 },
    );
  }
  await page.waitForTimeout(1500);
  console.log(
    await page.evaluate(`JSON.stringify({
      painted: performance.getEntriesByName('margins:highlights-painted').map((e) => Math.round(e.startTime)),
      laidOut: performance.getEntriesByName('margins:layout-done').map((e) => Math.round(e.startTime)),
      now: Math.round(performance.now()),
    })`),
  );
  if (tracingLoad) {
    await browser.stopTracing();
    console.log(
      await page.evaluate(`JSON.stringify({
      lcp: performance.getEntriesByType('largest-contentful-paint').map((e) => [Math.round(e.startTime), e.size, e.element && e.element.tagName]),
      painted: performance.getEntriesByName('margins:highlights-painted').map((e) => Math.round(e.startTime)),
    })`),
    );
  }
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const tracing = process.argv.includes('trace');
  if (tracing) {
    await browser.startTracing(page, {
      path: `${OUT}/trace.json`,
      categories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'disabled-by-default-devtools.timeline.invalidationTracking',
        'disabled-by-default-devtools.timeline.stack',
        'blink.user_timing',
      ],
    });
  }
  const frames = (await page.evaluate(`new Promise((resolve) => {
    const frames = []; let last = 0; let index = 0;
    const tick = (time) => {
      if (last) frames.push(time - last);
      last = time; index++;
      const end = document.documentElement.scrollHeight - innerHeight;
      scrollTo(0, Math.round((end * index) / 2000));
      if (index <= ${frameCount}) requestAnimationFrame(tick); else resolve(frames);
    };
    requestAnimationFrame(tick);
  })`)) as number[];
  const { profile } = await cdp.send('Profiler.stop');
  if (tracing) await browser.stopTracing();
  writeFileSync(`${OUT}/scroll.cpuprofile`, JSON.stringify(profile));
  const sorted = [...frames].sort((a, b) => a - b);
  console.log(
    `frames ${frames.length}, over 32 ms: ${frames.filter((f) => f > 32).length}, ` +
      `p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)}, p99 ${sorted[Math.floor(sorted.length * 0.99)]!.toFixed(1)}`,
  );
  const self = new Map<string, number>();
  const dt = profile.timeDeltas ?? [];
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  (profile.samples ?? []).forEach((id, index) => {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || '(anon)'} ${url.split('/').pop()}:${lineNumber}:${node.callFrame.columnNumber}`;
    self.set(key, (self.get(key) ?? 0) + (dt[index] ?? 0) / 1000);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`profile total ${total.toFixed(0)} ms`);
  for (const [key, ms] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`${ms.toFixed(1).padStart(8)} ms  ${key}`);
  }
} finally {
  await browser.close();
  await server.close();
}
