import type { FeedbackRow } from '@margins/common';
import { FEEDBACK_COLUMNS } from '@margins/common';
import type { ExportNote, FeedbackData } from './feedback-data.ts';

/** One row per comment and reply, in document order (replies after their comment). */
export function feedbackRows(data: FeedbackData): FeedbackRow[] {
  const rows: FeedbackRow[] = [];
  const row = (
    kind: FeedbackRow['kind'],
    note: ExportNote,
    threadId: number,
    thread: FeedbackData['threads'][number],
    resolved: boolean,
  ): FeedbackRow => ({
    kind,
    id: note.id,
    thread_id: threadId,
    chapter: thread.chapter,
    quote: thread.quote,
    text: note.text,
    author: note.author,
    date: note.date,
    votes: note.votes,
    reactions: note.reactions,
    resolved,
    orphaned: thread.start === null,
    moderation_hidden: note.moderationHidden,
    moderation_reason: note.moderationReason,
  });
  for (const thread of data.threads) {
    for (const comment of thread.comments) {
      rows.push(row('comment', comment, comment.id, thread, comment.resolved));
      for (const reply of comment.replies) {
        rows.push(row('reply', reply, comment.id, thread, comment.resolved));
      }
    }
  }
  return rows;
}

/**
 * One CSV field (RFC 4180). A value a spreadsheet would run as a formula (=, +, -, @, tab, CR
 * first) gets a leading apostrophe: a reader's comment must not become a formula on the
 * author's machine.
 */
export function csvField(value: string | number | boolean | null): string {
  let text = value === null ? '' : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows as CSV with a header line (CRLF line ends, UTF-8 BOM so spreadsheets read the emoji). */
export function toCsv(
  header: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number | boolean | null>>,
): string {
  const lines = [
    header.map(csvField).join(','),
    ...rows.map((cells) => cells.map(csvField).join(',')),
  ];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** The feedback rows as CSV. */
export function feedbackCsv(rows: FeedbackRow[]): string {
  return toCsv(
    FEEDBACK_COLUMNS,
    rows.map((row) => FEEDBACK_COLUMNS.map((column) => row[column])),
  );
}
