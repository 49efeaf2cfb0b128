/** Parses an ISO timestamp; the text "now" is accepted and means this moment (SPEC §9). */
export function parseTimestamp(value: string | Date): Date {
  if (value instanceof Date) return value;
  if (value.trim().toLowerCase() === 'now') return new Date();
  return new Date(value);
}

const dateFormat = new Intl.DateTimeFormat(undefined, {
  weekday: 'long',
  month: 'long',
  day: 'numeric',
  year: 'numeric',
});

const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** A date in the local time zone: weekday, month, day, year. */
export function formatDate(value: string | Date): string {
  const date = parseTimestamp(value);
  return Number.isNaN(date.getTime()) ? '' : dateFormat.format(date);
}

/** A date with the time of day, in the local time zone. */
export function formatDateTime(value: string | Date): string {
  const date = parseTimestamp(value);
  return Number.isNaN(date.getTime()) ? '' : dateTimeFormat.format(date);
}
