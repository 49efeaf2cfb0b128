/**
 * The server's first screen of the reader (the title and opening blocks it puts in #root before
 * the app runs, server modules/pages/first-screen.ts), taken when the app starts — before React
 * replaces it — so the reader can keep showing it while the text is fetched (issue 11).
 */
const firstScreenMarkup: string =
  typeof document === 'undefined'
    ? ''
    : (document.querySelector('#root [data-first-screen]')?.outerHTML ?? '');

/**
 * The first screen as the app shows it while the text loads: without the band that stood in
 * the header's place (`data-first-screen-header`), since the app's own header is there now —
 * with both, the text moved down a header's height, then back.
 */
export function firstScreenInApp(markup: string = firstScreenMarkup): string {
  if (markup === '') return '';
  const template = document.createElement('template');
  template.innerHTML = markup;
  template.content.querySelector('[data-first-screen-header]')?.remove();
  const element = template.content.firstElementChild;
  return element ? element.outerHTML : '';
}

/** The longest the app waits for the first screen's paint to be reported before it renders. */
const FIRST_PAINT_WAIT_MS = 1_000;

/**
 * Resolves once the browser has reported the first paint of the server's first screen (its
 * "largest contentful paint"), at once when there is none to wait for. The report reaches the
 * page in a task of its own after the frame is shown; while the app's modules run it waits, and
 * if the app replaced the first screen first, Chromium dropped the paint of nodes no longer in
 * the page: the first words counted only when the app drew them again (issue 18). A hidden tab
 * paints nothing, and a browser without the entry types has nothing to wait for.
 */
export function firstScreenPainted(): Promise<void> {
  if (firstScreenMarkup === '' || document.visibilityState === 'hidden') return Promise.resolve();
  const types =
    typeof PerformanceObserver === 'undefined' ? [] : PerformanceObserver.supportedEntryTypes;
  const type = types.includes('largest-contentful-paint')
    ? 'largest-contentful-paint'
    : types.includes('paint')
      ? 'paint'
      : null;
  if (type === null) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      observer.disconnect();
      clearTimeout(timer);
      resolve();
    };
    const observer = new PerformanceObserver(done);
    const timer = setTimeout(done, FIRST_PAINT_WAIT_MS);
    observer.observe({ type, buffered: true });
  });
}
