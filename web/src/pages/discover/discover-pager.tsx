import type { DiscoverResponse } from '@margins/common';

/**
 * The pager of SPEC §7's page: first, previous, the window of page numbers (gaps as "…"),
 * next and last. Real links (they open in a new tab), followed inside the app on a click.
 */
export function DiscoverPager({
  page,
  hrefFor,
  onPage,
}: {
  page: DiscoverResponse['page'];
  hrefFor: (page: number) => string;
  onPage: (page: number) => void;
}) {
  if (page.last_page <= 1) return null;
  const link = (target: number, label: string, extra: Record<string, string> = {}) => (
    <a
      href={hrefFor(target)}
      className="btn btn-ghost min-w-10 px-3"
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        onPage(target);
      }}
      {...extra}
    >
      {label}
    </a>
  );
  const atStart = page.current <= page.first_page;
  const atEnd = page.current >= page.last_page;
  return (
    <nav
      aria-label="Result pages"
      className="mt-10 flex flex-wrap items-center justify-center gap-1"
    >
      {atStart ? null : link(page.first_page, 'First', { 'aria-label': 'First page' })}
      {atStart
        ? null
        : link(page.current - 1, 'Previous', { 'aria-label': 'Previous page', rel: 'prev' })}
      {page.iter_pages.map((number, index) =>
        number === null ? (
          <span key={`gap-${index}`} className="px-2 text-muted" aria-hidden="true">
            …
          </span>
        ) : number === page.current ? (
          <span
            key={number}
            aria-current="page"
            className="btn btn-primary min-w-10 px-3"
            aria-label={`Page ${number}, current page`}
          >
            {number}
          </span>
        ) : (
          <span key={number}>
            {link(number, String(number), { 'aria-label': `Page ${number}` })}
          </span>
        ),
      )}
      {atEnd ? null : link(page.current + 1, 'Next', { 'aria-label': 'Next page', rel: 'next' })}
      {atEnd ? null : link(page.last_page, 'Last', { 'aria-label': 'Last page' })}
    </nav>
  );
}
