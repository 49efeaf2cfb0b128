/**
 * The server's first screen of the reader (the title and opening blocks it puts in #root before
 * the app runs, server modules/pages/first-screen.ts), taken when the app starts — before React
 * replaces it — so the reader can keep showing it while the text is fetched (issue 11).
 */
export const firstScreenMarkup: string =
  typeof document === 'undefined'
    ? ''
    : (document.querySelector('#root [data-first-screen]')?.outerHTML ?? '');
