// The reader at book length (issue 18): the ~150k-word test novel with 2,000 comments, opened by
// its author, against a static anchor page with the same text and the same 2,000 highlight
// marks and no script (the floor for this DOM), in Debian's Chromium, in the same run.
//   npm run build -w web && npx tsx bench/reader.bench.ts [runs=3]
// BENCH_PORT (3160) is the server's port; it gets its own DATA_DIR (removed at the end).
// Prints, per row, Margins / anchor / ratio (medians of the runs). On a shared machine the
// absolute numbers are noisy; the ratios within one run are what to compare.
// The scrolls start once the page is laid out: the anchor is at its first frame, Margins when
// its progressive layout marks `margins:layout-done` (every block handed to full layout) — a
// steady-state scroll against a steady-state scroll. The wait is a loading cost, printed as its
// own row ("whole text laid out"), and the longest task counts every task until then.
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { percentile, round } from './realtime-support.ts';
import { startReaderBook, type ReaderBookServer } from './reader-book.ts';

const runs = Number(process.argv[2] ?? 3);
const port = Number(process.env.BENCH_PORT ?? 3160);
const COUNT = 2000;
const SCROLL_FRAMES = 2000;
const LAPTOP = { width: 1279, height: 900 };
/** From 1280 px (80rem) on, the notes are in the margin column beside the text. */
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** Installed before any script of the page: long tasks, LCP, and the first frame after parse. */
const OBSERVERS = `
  window.__bench = { longtasks: [], lcp: 0, parsedFrame: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__bench.longtasks.push([entry.startTime, entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__bench.lcp = entry.renderTime || entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  document.addEventListener('DOMContentLoaded', () =>
    requestAnimationFrame(() => setTimeout(() => { window.__bench.parsedFrame = performance.now(); })));
`;

/** When every highlight is drawn: the app's mark, else (older builds) the box's count. */
const PAINTED = (count: number) => `(() => {
  const marks = performance.getEntriesByName('margins:highlights-painted');
  if (marks.length > 0) return marks[marks.length - 1].startTime;
  const box = document.querySelector('.reader-box');
  return box && box.dataset.highlightCount === '${count}' ? performance.now() : 0;
})()`;

/**
 * Scrolls top to bottom in SCROLL_FRAMES frames (a fling through the book, ~230 px a frame);
 * resolves with the frame intervals.
 */
const SCROLL = `new Promise((resolve) => {
  const frames = [];
  let last = 0;
  let index = 0;
  const started = performance.now();
  window.scrollTo(0, 0);
  const tick = (time) => {
    if (last) frames.push(time - last);
    last = time;
    index++;
    const end = document.documentElement.scrollHeight - window.innerHeight;
    window.scrollTo(0, Math.round((end * index) / ${SCROLL_FRAMES}));
    // A page too slow to scroll in two minutes stops there (its frames tell already).
    if (index <= ${SCROLL_FRAMES} && time < started + 120000) requestAnimationFrame(tick);
    else resolve(frames);
  };
  setTimeout(() => requestAnimationFrame(tick), 200);
})`;

/** Frames of the reading-speed scroll, and the pixels it moves in each (one screen a second). */
const READING_FRAMES = 600;
const READING_STEP_PX = 15;

/**
 * Scrolls at reading speed from 40 % into the book: the margin mounts and places the cards as
 * they come into the window (a fling places them once it slows). Resolves with the intervals.
 */
const READING_SCROLL = `new Promise((resolve) => {
  const frames = [];
  let last = 0;
  let index = 0;
  window.scrollTo(0, Math.round((document.documentElement.scrollHeight - window.innerHeight) * 0.4));
  const from = window.scrollY;
  const tick = (time) => {
    if (last) frames.push(time - last);
    last = time;
    index++;
    window.scrollTo(0, from + index * ${READING_STEP_PX});
    if (index <= ${READING_FRAMES}) requestAnimationFrame(tick);
    else resolve(frames);
  };
  setTimeout(() => requestAnimationFrame(tick), 1000);
})`;

interface Load {
  lcp: number;
  painted: number;
  laidOut: number;
  longestTask: number;
  heapMb: number;
}
interface Scroll {
  slowFrames: number;
  p99: number;
  frames: number;
}

async function newContext(
  browser: Browser,
  server: ReaderBookServer,
  viewport: { width: number; height: number },
) {
  // The bench's own probes are strings evaluated in the page (the app's CSP forbids eval).
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, bypassCSP: true });
  await context.addCookies([
    { ...server.cookie, domain: '127.0.0.1', path: '/', httpOnly: true, sameSite: 'Lax' },
  ]);
  await context.addInitScript({ content: OBSERVERS });
  // The cookie notice stays out of the way of every run alike.
  await context.addInitScript({
    content: "try { localStorage.setItem('cookie-accept', 'true'); } catch {}",
  });
  return context;
}

/** Loads a page until its highlights are drawn and it has settled; the load's numbers. */
async function load(context: BrowserContext, url: string, anchor: boolean): Promise<[Page, Load]> {
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
  const painted = anchor
    ? Number(
        await (
          await page.waitForFunction('window.__bench.parsedFrame', undefined, { timeout: 120_000 })
        ).jsonValue(),
      )
    : Number(
        await (
          await page.waitForFunction(PAINTED(COUNT), undefined, { polling: 50, timeout: 120_000 })
        ).jsonValue(),
      );
  // Margins lays its text out a part at a time after the first screen (use-progressive-layout).
  const laidOut = anchor
    ? painted
    : Number(
        await (
          await page.waitForFunction(
            "performance.getEntriesByName('margins:layout-done')[0]?.startTime ?? 0",
            undefined,
            { polling: 50, timeout: 120_000 },
          )
        ).jsonValue(),
      );
  await page.waitForTimeout(1500);
  const { lcp, longtasks } = (await page.evaluate('window.__bench')) as {
    lcp: number;
    longtasks: Array<[number, number]>;
  };
  const client = await context.newCDPSession(page);
  await client.send('HeapProfiler.collectGarbage');
  const heap = await client.send('Runtime.getHeapUsage');
  await client.detach();
  return [
    page,
    {
      lcp,
      painted,
      laidOut,
      longestTask: Math.max(0, ...longtasks.map(([, duration]) => duration)),
      heapMb: heap.usedSize / 1024 / 1024,
    },
  ];
}

async function scroll(page: Page, script = SCROLL): Promise<Scroll> {
  const frames = (await page.evaluate(script)) as number[];
  return {
    slowFrames: frames.filter((frame) => frame > 32).length,
    p99: percentile(frames, 99),
    frames: frames.length,
  };
}

/** Loads the page at a width and scrolls the whole book. */
async function loadAndScroll(
  browser: Browser,
  server: ReaderBookServer,
  url: string,
  anchor: boolean,
  viewport: { width: number; height: number },
): Promise<[Load, Scroll, Scroll | null]> {
  const context = await newContext(browser, server, viewport);
  const [page, loaded] = await load(context, url, anchor);
  const scrolled = await scroll(page);
  // With the margin column: a reading-speed scroll too, the cards mounted as they come.
  const reading = viewport === WIDE ? await scroll(page, READING_SCROLL) : null;
  await context.close();
  console.error(
    `  ${anchor ? 'anchor' : 'Margins'} ${viewport.width}: ${JSON.stringify(loaded)} ${JSON.stringify(scrolled)}${reading ? ` reading ${JSON.stringify(reading)}` : ''}`,
  );
  return [loaded, scrolled, reading];
}

/** One run of one page: laptop load + scroll, wide (margin column) and phone scrolls. */
async function measure(browser: Browser, server: ReaderBookServer, url: string, anchor: boolean) {
  const [loaded, laptopScroll] = await loadAndScroll(browser, server, url, anchor, LAPTOP);
  const [, wideScroll, readingScroll] = await loadAndScroll(browser, server, url, anchor, WIDE);
  const [, phoneScroll] = await loadAndScroll(browser, server, url, anchor, PHONE);
  return { ...loaded, laptopScroll, wideScroll, readingScroll: readingScroll!, phoneScroll };
}

const median = (values: number[]): number => percentile(values, 50);

const server = await startReaderBook(port, COUNT);
console.log(
  `book: ${server.words} words, ${server.highlights} highlights with a comment each, ` +
    `opened by its author; ${runs} run(s), medians; Chromium at /usr/bin/chromium`,
);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--enable-precise-memory-info'],
});
const readerUrl = `${server.baseUrl}/manuscript/document/reader/${server.manuscriptId}`;
try {
  // A first load warms the server and gives the anchor its HTML: the box with every mark.
  const warm = await newContext(browser, server, LAPTOP);
  const [warmPage] = await load(warm, readerUrl, false);
  const boxHtml = (await warmPage.evaluate(
    "document.querySelector('.reader-box').innerHTML",
  )) as string;
  server.setAnchorHtml(boxHtml.replace(/ data-hl="[^"]*"/g, ''));
  await warm.close();

  const margins: Awaited<ReturnType<typeof measure>>[] = [];
  const anchors: Awaited<ReturnType<typeof measure>>[] = [];
  for (let run = 0; run < runs; run++) {
    margins.push(await measure(browser, server, readerUrl, false));
    anchors.push(await measure(browser, server, `${server.baseUrl}/bench/anchor`, true));
  }

  const rows: Array<[string, (sample: (typeof margins)[number]) => number, string]> = [
    ['text visible (LCP)', (sample) => sample.lcp, 'ms'],
    ['all highlights painted', (sample) => sample.painted, 'ms'],
    ['whole text laid out (the scrolls start after it)', (sample) => sample.laidOut, 'ms'],
    ['longest main-thread task while loading', (sample) => sample.longestTask, 'ms'],
    [
      `laptop ${LAPTOP.width}×${LAPTOP.height} scroll: frames over 32 ms (of ${SCROLL_FRAMES}; fewer when 2 min ran out)`,
      (sample) => sample.laptopScroll.slowFrames,
      '',
    ],
    ['laptop scroll p99 frame', (sample) => sample.laptopScroll.p99, 'ms'],
    ['JS heap after GC', (sample) => sample.heapMb, 'MB'],
    [
      `wide ${WIDE.width}×${WIDE.height} (margin column) scroll: frames over 32 ms`,
      (sample) => sample.wideScroll.slowFrames,
      '',
    ],
    ['wide scroll p99 frame', (sample) => sample.wideScroll.p99, 'ms'],
    [
      `wide, reading speed (one screen a second, ${READING_FRAMES} frames): frames over 32 ms`,
      (sample) => sample.readingScroll.slowFrames,
      '',
    ],
    ['wide reading-speed p99 frame', (sample) => sample.readingScroll.p99, 'ms'],
    [
      `phone ${PHONE.width}×${PHONE.height} scroll: frames over 32 ms`,
      (sample) => sample.phoneScroll.slowFrames,
      '',
    ],
    ['phone scroll p99 frame', (sample) => sample.phoneScroll.p99, 'ms'],
  ];
  console.log('| | Margins | static anchor | ratio |\n|---|---|---|---|');
  for (const [label, pick, unit] of rows) {
    const ours = median(margins.map(pick));
    const floor = median(anchors.map(pick));
    const ratio = floor > 0 ? `${round(ours / floor, 2)}×` : '—';
    console.log(`| ${label} | ${round(ours)} ${unit} | ${round(floor)} ${unit} | ${ratio} |`);
  }
} finally {
  await browser.close();
  await server.close();
}
