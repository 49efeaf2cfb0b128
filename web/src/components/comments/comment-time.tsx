import { formatDateTime, formatShortDate, lazyFormat, parseTimestamp } from '../../lib/dates.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const weekdayTime = lazyFormat({ weekday: 'short', hour: 'numeric', minute: '2-digit' });

/**
 * A comment's time as the margin shows it, in the local time zone: "just now", "5 min ago",
 * "3 h ago", "Tue 14:05" within the week, then the date. The text "now" means this moment.
 */
export function relativeTime(value: string, now: number = Date.now()): string {
  const date = parseTimestamp(value);
  const time = date.getTime();
  if (Number.isNaN(time)) return '';
  const age = now - time;
  if (age < 45_000) return 'just now';
  if (age < HOUR) return `${Math.max(1, Math.round(age / MINUTE))} min ago`;
  if (age < DAY) return `${Math.round(age / HOUR)} h ago`;
  if (age < 7 * DAY) return weekdayTime().format(date);
  return formatShortDate(date);
}

/** A <time> with the short label and the full local date and time on hover. */
export function CommentTime({ value, edited = false }: { value: string; edited?: boolean }) {
  const date = parseTimestamp(value);
  const iso = Number.isNaN(date.getTime()) ? undefined : date.toISOString();
  return (
    <time dateTime={iso} title={formatDateTime(value)} className="whitespace-nowrap">
      {relativeTime(value)}
      {edited ? ' · edited' : ''}
    </time>
  );
}
