/**
 * A count with thousands separators, as the app's English writes it: 150,052. Not
 * `toLocaleString`: the first number format loads the locale's data, ~40 ms inside the task that
 * shows a book (issue 18) — and the page's words are English, so are its numbers.
 */
export function formatCount(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const sign = value < 0 ? '-' : '';
  const [whole = '0', fraction] = String(Math.abs(value)).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return sign + grouped + (fraction ? `.${fraction}` : '');
}
