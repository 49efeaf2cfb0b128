import { describe, expect, it } from 'vitest';
import { relativeTime } from '../components/comments/comment-time.tsx';
import { formatDate, formatDateTime, formatShortDate } from './dates.ts';

describe('dates', () => {
  const date = new Date(2026, 2, 4, 14, 5);

  it('formats in the local time zone, the same every call (one formatter made on first use)', () => {
    const short = new Intl.DateTimeFormat(undefined, {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
    }).format(date);
    expect(formatShortDate(date)).toBe(short);
    expect(formatShortDate(date.toISOString())).toBe(short);
    expect(formatDate(date)).toContain('2026');
    expect(formatDateTime(date)).toContain('2026');
  });

  it('gives nothing for a timestamp that is not one', () => {
    expect(formatShortDate('not a date')).toBe('');
    expect(formatDate('not a date')).toBe('');
    expect(formatDateTime('not a date')).toBe('');
  });

  it('says how long ago a comment was, then its weekday, then its date', () => {
    const now = date.getTime();
    expect(relativeTime(new Date(now - 10_000).toISOString(), now)).toBe('just now');
    expect(relativeTime(new Date(now - 5 * 60_000).toISOString(), now)).toBe('5 min ago');
    expect(relativeTime(new Date(now - 3 * 3_600_000).toISOString(), now)).toBe('3 h ago');
    const weekday = new Date(now - 3 * 86_400_000);
    expect(relativeTime(weekday.toISOString(), now)).toBe(
      new Intl.DateTimeFormat(undefined, {
        weekday: 'short',
        hour: 'numeric',
        minute: '2-digit',
      }).format(weekday),
    );
    const old = new Date(now - 30 * 86_400_000);
    expect(relativeTime(old.toISOString(), now)).toBe(formatShortDate(old));
  });
});
