import { and, asc, eq, isNull } from 'drizzle-orm';
import { REACTIONS, type ReactionName } from '@margins/common';
import { schema, type Executor } from '../../db/index.ts';
import { cachedDocumentText } from '../comments/document-text.ts';
import { reactionsOf } from '../comments/thread-queries.ts';
import { headingLevels } from './headings.ts';

// Everything an export of a manuscript's feedback needs, read once and handed on as plain data
// (it crosses into the DOCX worker thread). Built for the manuscript's owner, who sees every
// comment's text: nothing is withheld, nothing deleted is included, and no e-mail address is read.

export interface ExportNote {
  id: number;
  author: string;
  initials: string;
  /** ISO time. */
  date: string;
  text: string;
  votes: number;
  /** e.g. "👍 2; ❤️ 1" ('' when none). */
  reactions: string;
  resolved: boolean;
  moderationHidden: boolean;
  moderationReason: string | null;
}

export interface ExportComment extends ExportNote {
  replies: ExportNote[];
}

export interface ExportThread {
  selectionId: string;
  /** Offsets in the current draft's document text; null for an orphan (appendix). */
  start: number | null;
  end: number | null;
  quote: string;
  chapter: string;
  comments: ExportComment[];
}

export interface FeedbackData {
  title: string;
  author: string;
  /** The current draft's HTML ('' when there is none). */
  html: string;
  /**
   * Its document text and blocks (the parse the comments module caches per draft), so that the
   * worker does not parse the book again.
   */
  text: string;
  blocks: Array<{ id: string; start: number; end: number }>;
  toc: Array<{ id: string; level: number; text: string }>;
  /** In document order, orphans last. */
  threads: ExportThread[];
}

function initialsOf(name: string): string {
  const letters = name
    .split(/\s+/)
    .map((part) => /\p{L}/u.exec(part)?.[0] ?? '')
    .join('');
  return (letters.slice(0, 3) || '?').toUpperCase();
}

function reactionText(set: Array<{ name: ReactionName; count: number }>): string {
  return set.map((reaction) => `${REACTIONS[reaction.name]} ${reaction.count}`).join('; ');
}

/** Loads a manuscript's feedback as its owner sees it. */
export async function loadFeedbackData(db: Executor, manuscriptId: number): Promise<FeedbackData> {
  const [manuscript] = await db
    .select({
      title: schema.manuscripts.title,
      author: schema.users.displayName,
      versionId: schema.manuscripts.currentVersionId,
    })
    .from(schema.manuscripts)
    .innerJoin(schema.users, eq(schema.users.id, schema.manuscripts.userId))
    .where(eq(schema.manuscripts.id, manuscriptId));
  if (!manuscript) throw new Error(`manuscript ${manuscriptId} is gone`);
  const [version] = manuscript.versionId
    ? await db
        .select({
          id: schema.manuscriptVersions.id,
          html: schema.manuscriptVersions.html,
          toc: schema.manuscriptVersions.toc,
        })
        .from(schema.manuscriptVersions)
        .where(eq(schema.manuscriptVersions.id, manuscript.versionId))
    : [];
  const html = version?.html ?? '';
  const toc = version?.toc ?? [];

  const [highlights, rows] = await Promise.all([
    db
      .select()
      .from(schema.highlights)
      .where(
        and(eq(schema.highlights.manuscriptId, manuscriptId), isNull(schema.highlights.deletedAt)),
      )
      .orderBy(asc(schema.highlights.orphaned), asc(schema.highlights.textStart)),
    db
      .select({
        comment: schema.comments,
        author: schema.users.displayName,
      })
      .from(schema.comments)
      .innerJoin(schema.users, eq(schema.users.id, schema.comments.authorId))
      .where(and(eq(schema.comments.manuscriptId, manuscriptId), isNull(schema.comments.deletedAt)))
      .orderBy(asc(schema.comments.createdAt), asc(schema.comments.id)),
  ]);
  const reactions = new Map(
    (
      await reactionsOf(
        db,
        rows.map((row) => row.comment.id),
      )
    ).map((set) => [set.comment_id, reactionText(set.reactions)]),
  );
  const noteOf = ({ comment, author }: (typeof rows)[number]): ExportNote => ({
    id: comment.id,
    author,
    initials: initialsOf(author),
    date: comment.createdAt.toISOString(),
    text: comment.body,
    votes: comment.rank,
    reactions: reactions.get(comment.id) ?? '',
    resolved: comment.resolvedAt !== null,
    moderationHidden: comment.moderationFlag,
    moderationReason: comment.moderationFlag ? comment.moderationReason : null,
  });

  const bySelection = new Map<string, ExportComment[]>();
  const roots = new Map<number, ExportComment>();
  for (const row of rows) {
    if (row.comment.parentId !== null) continue;
    const comment: ExportComment = { ...noteOf(row), replies: [] };
    roots.set(comment.id, comment);
    const list = bySelection.get(row.comment.selectionId) ?? [];
    list.push(comment);
    bySelection.set(row.comment.selectionId, list);
  }
  for (const row of rows) {
    if (row.comment.parentId === null) continue;
    // A reply to a deleted comment went with it.
    roots.get(row.comment.parentId)?.replies.push(noteOf(row));
  }

  const doc = version ? cachedDocumentText(version.id, () => html) : null;
  const chapterAt = chapterFinder(doc, html);
  const threads: ExportThread[] = [];
  for (const highlight of highlights) {
    const comments = bySelection.get(highlight.id);
    if (!comments) continue;
    // Placed in this draft only when the stored position still holds the quote.
    const placed =
      doc !== null &&
      !highlight.orphaned &&
      highlight.versionId === version?.id &&
      doc.text.slice(highlight.textStart, highlight.textEnd) === highlight.quoteExact;
    threads.push({
      selectionId: highlight.id,
      start: placed ? highlight.textStart : null,
      end: placed ? highlight.textEnd : null,
      quote: placed ? highlight.quoteExact : highlight.selectedText,
      chapter: placed ? chapterAt(highlight.textStart) : '',
      comments,
    });
  }
  threads.sort((a, b) => (a.start ?? Infinity) - (b.start ?? Infinity));
  return {
    title: manuscript.title,
    author: manuscript.author,
    html,
    text: doc?.text ?? '',
    blocks: doc?.blocks ?? [],
    toc,
    threads,
  };
}

/** The chapter (the text of the nearest top-level heading before a position). */
function chapterFinder(
  doc: { text: string; blocks: Array<{ id: string; start: number; end: number }> } | null,
  html: string,
): (at: number) => string {
  const levels = headingLevels(html);
  if (!doc || levels.size === 0) return () => '';
  const top = Math.min(...levels.values());
  const starts = doc.blocks
    .filter((block) => levels.get(block.id) === top)
    .map((block) => ({ start: block.start, title: doc.text.slice(block.start, block.end).trim() }));
  return (at) => {
    let found = '';
    for (const heading of starts) {
      if (heading.start > at) break;
      found = heading.title;
    }
    return found;
  };
}
