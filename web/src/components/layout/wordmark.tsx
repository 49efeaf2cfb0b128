/** The Margins wordmark: a page mark with its red margin line, and the name in serif. */
export function Wordmark() {
  return (
    <span className="inline-flex items-center gap-2.5">
      <svg aria-hidden="true" viewBox="0 0 28 32" className="h-7 w-6 shrink-0">
        <rect
          x="1"
          y="1"
          width="26"
          height="30"
          rx="3.5"
          className="fill-surface stroke-ink"
          strokeWidth="1.6"
        />
        <rect x="7.5" y="4" width="1.6" height="24" className="fill-accent" />
        <rect x="12" y="9" width="10" height="1.6" rx="0.8" className="fill-muted" />
        <rect x="12" y="14" width="10" height="1.6" rx="0.8" className="fill-muted" />
        <rect x="12" y="19" width="7" height="1.6" rx="0.8" className="fill-muted" />
      </svg>
      <span className="font-serif text-[1.4rem] leading-none font-semibold tracking-tight text-ink">
        Margins
      </span>
    </span>
  );
}
