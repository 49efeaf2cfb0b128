/**
 * The pager's window of page numbers, with null where pages are left out (as a pager draws
 * "1 2 … 7 8 [9] 10 11 12 13 … 40 41"): the first and last two pages, two before the
 * current one and four after it (Flask-SQLAlchemy's iter_pages, which SPEC's shape follows).
 */
export function iterPages(current: number, last: number): Array<number | null> {
  const EDGE = 2;
  const BEFORE = 2;
  const AFTER = 4;
  const pages: Array<number | null> = [];
  let previous = 0;
  for (let page = 1; page <= last; page += 1) {
    const shown =
      page <= EDGE || page > last - EDGE || (page >= current - BEFORE && page <= current + AFTER);
    if (!shown) continue;
    if (page !== previous + 1) pages.push(null);
    pages.push(page);
    previous = page;
  }
  return pages;
}
