import {
  CommentRangeEnd,
  CommentRangeStart,
  CommentReference,
  Document,
  HeadingLevel,
  Packer,
  Paragraph,
  TextRun,
  type ICommentOptions,
  type ParagraphChild,
} from 'docx';
import { THREAD_MESSAGES } from '@margins/common';
import type { ExportNote, ExportThread, FeedbackData } from './feedback-data.ts';
import { headingLevels } from './headings.ts';

// The manuscript's text as a Word document with every comment and reply as a real Word comment,
// anchored on exactly the highlighted passage (w:commentRangeStart/End around those characters),
// replies threaded under their comment (commentsExtended.xml), resolved threads marked done.
// Pure and synchronous but for the final zip: it runs in a worker thread (docx-worker.ts).

const HEADINGS = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3] as const;

/** A comment's body: the moderators' mark first when they hid it (kept, never dropped). */
function noteParagraphs(note: ExportNote): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  if (note.moderationHidden) {
    const reason = note.moderationReason ? `: ${note.moderationReason}` : '';
    paragraphs.push(
      new Paragraph({
        children: [
          new TextRun({ text: `[${THREAD_MESSAGES.hiddenByModerators}${reason}]`, italics: true }),
        ],
      }),
    );
  }
  for (const line of note.text.split('\n')) paragraphs.push(new Paragraph(line));
  const extras = [
    note.votes !== 0 ? `Votes: ${note.votes > 0 ? '+' : ''}${note.votes}` : '',
    note.reactions,
  ]
    .filter(Boolean)
    .join(' · ');
  if (extras) {
    paragraphs.push(new Paragraph({ children: [new TextRun({ text: extras, size: 16 })] }));
  }
  return paragraphs;
}

/** Word comment ids for each thread (every comment and reply), and the comments part. */
function wordComments(threads: ExportThread[]): { ids: number[][]; comments: ICommentOptions[] } {
  let next = 0;
  const comments: ICommentOptions[] = [];
  const ids = threads.map((thread) => {
    const own: number[] = [];
    for (const comment of thread.comments) {
      const rootId = next++;
      own.push(rootId);
      comments.push({
        id: rootId,
        author: comment.author,
        initials: comment.initials,
        date: new Date(comment.date),
        resolved: comment.resolved,
        children: noteParagraphs(comment),
      });
      for (const reply of comment.replies) {
        const replyId = next++;
        own.push(replyId);
        comments.push({
          id: replyId,
          parentId: rootId,
          author: reply.author,
          initials: reply.initials,
          date: new Date(reply.date),
          resolved: comment.resolved,
          children: noteParagraphs(reply),
        });
      }
    }
    return own;
  });
  return { ids, comments };
}

interface Mark {
  at: number;
  ids: number[];
}

const referenceRuns = (ids: number[]) =>
  ids.flatMap((id) => [
    new CommentRangeEnd(id),
    new TextRun({ children: [new CommentReference(id)] }),
  ]);

/**
 * The paragraphs of the draft: its document text split at "\n" (blocks, list items), headings by
 * the toc, with each comment range opened and closed at its offsets. A range that starts or
 * ends in the "\n" between blocks is moved to the nearest text.
 */
function bodyParagraphs(
  data: FeedbackData,
  starts: Mark[],
  ends: Mark[],
  onProgress: (share: number) => void,
): Paragraph[] {
  const doc = { text: data.text, blocks: data.blocks };
  const levels = headingLevels(data.html);
  const headingStarts = new Map<number, number>();
  for (const block of doc.blocks) {
    const level = levels.get(block.id);
    if (level !== undefined) headingStarts.set(block.start, level);
  }
  const segments: Array<{ start: number; end: number; level: number | undefined }> = [];
  let from = 0;
  for (const line of doc.text.split('\n')) {
    const start = from;
    from += line.length + 1;
    if (line.trim() === '') continue;
    segments.push({ start, end: start + line.length, level: headingStarts.get(start) });
  }
  const paragraphs: Paragraph[] = [];
  let startIndex = 0;
  let endIndex = 0;
  const opened = new Set<number>();
  const step = Math.max(1, Math.floor(segments.length / 20));
  segments.forEach((segment, index) => {
    const nextStart = segments[index + 1]?.start ?? Infinity;
    const cuts = new Map<number, { open: number[]; close: number[] }>();
    const cut = (at: number) => {
      const found = cuts.get(at) ?? { open: [], close: [] };
      cuts.set(at, found);
      return found;
    };
    while (startIndex < starts.length && starts[startIndex]!.at < segment.end) {
      const mark = starts[startIndex++]!;
      cut(Math.max(mark.at, segment.start)).open.push(...mark.ids);
      for (const id of mark.ids) opened.add(id);
    }
    // Every range that ends before the next paragraph ends here (clamped to this text).
    while (endIndex < ends.length && ends[endIndex]!.at < nextStart) {
      const mark = ends[endIndex++]!;
      const here = cut(Math.min(Math.max(mark.at, segment.start), segment.end));
      // A range that lay wholly between blocks opens where it closes.
      const unopened = mark.ids.filter((id) => !opened.has(id));
      here.open.push(...unopened);
      for (const id of unopened) opened.add(id);
      here.close.push(...mark.ids);
    }
    const children: ParagraphChild[] = [];
    let at = segment.start;
    for (const position of [...cuts.keys()].sort((a, b) => a - b)) {
      if (position > at) children.push(new TextRun(doc.text.slice(at, position)));
      at = Math.max(at, position);
      const { open, close } = cuts.get(position)!;
      const closing = new Set(close);
      // Ranges that end here close before new ones open; one that also opened here opens first.
      const openedHere = new Set(open);
      children.push(...referenceRuns(close.filter((id) => !openedHere.has(id))));
      children.push(...open.map((id) => new CommentRangeStart(id)));
      children.push(...referenceRuns(open.filter((id) => closing.has(id))));
    }
    if (at < segment.end) children.push(new TextRun(doc.text.slice(at, segment.end)));
    const level = segment.level;
    paragraphs.push(
      new Paragraph({
        children,
        ...(level !== undefined ? { heading: HEADINGS[Math.min(level, 3) - 1] } : {}),
      }),
    );
    if (index % step === 0) onProgress(index / segments.length);
  });
  // Anything still open (a range past the text's end) is closed on the last paragraph.
  const rest = ends.slice(endIndex).flatMap((mark) => mark.ids);
  if (rest.length > 0) paragraphs.push(new Paragraph({ children: referenceRuns(rest) }));
  return paragraphs;
}

/** The appendix: each orphaned passage's quote, with its comments anchored on the quote. */
function appendixParagraphs(threads: ExportThread[], ids: number[][]): Paragraph[] {
  const orphans = threads.flatMap((thread, index) =>
    thread.start === null ? [{ thread, ids: ids[index]! }] : [],
  );
  if (orphans.length === 0) return [];
  return [
    new Paragraph({
      text: THREAD_MESSAGES.orphanedAppendix,
      heading: HeadingLevel.HEADING_1,
      pageBreakBefore: true,
    }),
    ...orphans.map(
      ({ thread, ids: own }) =>
        new Paragraph({
          children: [
            ...own.map((id) => new CommentRangeStart(id)),
            new TextRun({ text: thread.quote || ' ', italics: true }),
            ...referenceRuns(own),
          ],
        }),
    ),
  ];
}

/**
 * The DOCX of a manuscript's feedback. `onProgress` gets 0…1 (the text walk is most of the
 * work before the zip; the zip is the last step).
 */
export async function buildFeedbackDocx(
  data: FeedbackData,
  onProgress: (share: number) => void = () => undefined,
): Promise<Uint8Array> {
  const { ids, comments } = wordComments(data.threads);
  const starts: Mark[] = [];
  const ends: Mark[] = [];
  data.threads.forEach((thread, index) => {
    if (thread.start === null || thread.end === null) return;
    starts.push({ at: thread.start, ids: ids[index]! });
    ends.push({ at: thread.end, ids: ids[index]! });
  });
  starts.sort((a, b) => a.at - b.at);
  ends.sort((a, b) => a.at - b.at);
  const body = bodyParagraphs(data, starts, ends, (share) => onProgress(share * 0.6));
  const document = new Document({
    creator: data.author,
    title: data.title,
    description: 'Exported from Margins with every reader comment as a Word comment.',
    comments: { children: comments },
    sections: [{ children: [...body, ...appendixParagraphs(data.threads, ids)] }],
  });
  onProgress(0.7);
  const buffer = await Packer.toBuffer(document);
  onProgress(1);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}
