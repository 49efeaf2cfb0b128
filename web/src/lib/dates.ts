import { lazy } from './lazy.ts';

/** Parses an ISO timestamp; the text "now" is accepted and means this moment (SPEC §9). */
export function parseTimestamp(value: string | Date): Date {
  if (value instanceof Date) return value;
  if (value.trim().toLowerCase() === 'now') return new Date();
  return new Date(value);
}

/** A formatter in the local time zone, made on first use (lib/lazy.ts). */
export function lazyFormat(options: Intl.DateTimeFormatOptions): () => Intl.DateTimeFormat {
  return lazy(() => new Intl.DateTimeFormat(undefined, options));
}

const dateFormat = lazyFormat({ weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });

const dateTimeFormat = lazyFormat({
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

const shortDateFormat = lazyFormat({ month: 'short', day: 'numeric', year: 'numeric' });

/** A short date in the local time zone: "Mar 4, 2026". */
export function formatShortDate(value: string | Date): string {
  const date = parseTimestamp(value);
  return Number.isNaN(date.getTime()) ? '' : shortDateFormat().format(date);
}

/** A date in the local time zone: weekday, month, day, year. */
export function formatDate(value: string | Date): string {
  const date = parseTimestamp(value);
  return Number.isNaN(date.getTime()) ? '' : dateFormat().format(date);
}

/** A date with the time of day, in the local time zone. */
export function formatDateTime(value: string | Date): string {
  const date = parseTimestamp(value);
  return Number.isNaN(date.getTime()) ? '' : dateTimeFormat().format(date);
}
