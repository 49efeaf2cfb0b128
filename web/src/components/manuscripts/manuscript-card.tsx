import type { ReactNode } from 'react';
import { CARD_COLOUR_CYCLE, MESSAGES, type Manuscript } from '@margins/common';
import { categoryLabel, readerUrl } from '../../api/manuscripts.ts';
import { AuthorPopup } from '../author/author-popup.tsx';
import { InkSpinner } from './upload-progress.tsx';

/** Note colours and tilts of the cycle of 4 (SPEC §9): yellow, rose, sage, blue. */
const NOTE_STYLES = [
  'bg-note-1 sm:-rotate-[0.8deg]',
  'bg-note-2 sm:rotate-[0.6deg]',
  'bg-note-3 sm:-rotate-[0.4deg]',
  'bg-note-4 sm:rotate-[0.9deg]',
] as const;

/** The colour style of the card at a position in a list (index % 4). */
export function noteStyleIndex(index: number): number {
  return ((index % CARD_COLOUR_CYCLE) + CARD_COLOUR_CYCLE) % CARD_COLOUR_CYCLE;
}

/** The red notice a flagged manuscript shows instead of its summary. */
export function flaggedNotice(reason: string | null | undefined): string {
  return MESSAGES.flagged(reason?.trim() || MESSAGES.noReasonGiven);
}

function CommentCount({ count }: { count: number }) {
  const label = `${count} ${count === 1 ? 'comment' : 'comments'}`;
  return (
    <span className="inline-flex items-center gap-1.5" title={label} data-comment-count={count}>
      <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current opacity-70">
        <path d="M4 3.5h12A1.5 1.5 0 0 1 17.5 5v8a1.5 1.5 0 0 1-1.5 1.5H9l-4 3v-3H4A1.5 1.5 0 0 1 2.5 13V5A1.5 1.5 0 0 1 4 3.5Zm.5 2v7.5h2V15l2.5-2h6.5V5.5h-11Z" />
      </svg>
      <span aria-hidden="true">{count}</span>
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** The 18+ badge of a mature manuscript. */
export function MatureBadge() {
  return (
    <span
      title="Mature content"
      aria-label="Mature content"
      role="img"
      className="inline-flex items-center rounded-full border border-danger/40 bg-surface/70 px-2 py-0.5 text-[0.7rem] font-bold tracking-wide text-danger"
      data-nsfw-badge
    >
      18+
    </span>
  );
}

/**
 * A manuscript as a note card (SPEC §4): title, summary, the 18+ badge, comment count, the
 * author's popup; the red moderator notice instead of the summary when flagged; while
 * inking only the title and an "Inking ..." spinner, with no link. Colours cycle by index.
 */
export function ManuscriptCard({
  manuscript,
  index,
  actions,
  showAuthor = true,
  headingLevel = 3,
}: {
  manuscript: Manuscript;
  /** Position in its list: picks the colour style. */
  index: number;
  /** Buttons for the author (edit, delete), at the foot of the card. */
  actions?: ReactNode;
  showAuthor?: boolean;
  headingLevel?: 2 | 3 | 4;
}) {
  const Heading = `h${headingLevel}` as const;
  const style = noteStyleIndex(index);
  const className = `relative flex h-full min-h-52 flex-col rounded-md px-5 pt-7 pb-4 text-ink shadow-card transition-[transform,box-shadow] duration-200 ${NOTE_STYLES[style]}`;

  if (manuscript.inking) {
    return (
      <article
        className={className}
        data-manuscript-card={manuscript.id}
        data-note-style={style}
        data-inking
        aria-busy="true"
      >
        <Tape />
        <Heading className="font-serif text-xl leading-snug font-semibold">
          {manuscript.title}
        </Heading>
        <p className="mt-4 flex items-center gap-2 text-sm font-medium text-muted" role="status">
          <InkSpinner />
          Inking ...
        </p>
        {actions ? <div className="mt-auto flex gap-2 pt-4">{actions}</div> : null}
      </article>
    );
  }

  const flagged = manuscript.moderation_flag;
  return (
    <article
      className={`${className} focus-within:shadow-lift hover:shadow-lift sm:hover:rotate-0`}
      data-manuscript-card={manuscript.id}
      data-note-style={style}
    >
      <Tape />
      <div className="flex items-start justify-between gap-3">
        <Heading className="font-serif text-xl leading-snug font-semibold">
          {/* The title's link covers the card; the author and buttons sit above it. */}
          <a
            href={readerUrl(manuscript.id)}
            className="text-ink no-underline before:absolute before:inset-0 before:rounded-md before:content-[''] hover:text-accent focus-visible:outline-none focus-visible:before:outline-2 focus-visible:before:outline-offset-2 focus-visible:before:outline-accent"
          >
            {manuscript.title}
          </a>
        </Heading>
        {manuscript.nsfw ? <MatureBadge /> : null}
      </div>
      <p className="mt-1 text-xs font-semibold tracking-[0.12em] text-muted uppercase">
        {[categoryLabel(manuscript.category), ...manuscript.genres.slice(0, 2).map((g) => g.name)]
          .filter(Boolean)
          .join(' · ')}
      </p>
      {flagged ? (
        <p className="mt-3 text-sm font-medium text-danger" data-moderation-notice>
          {flaggedNotice(manuscript.moderation_reason)}
        </p>
      ) : (
        <p className="mt-3 line-clamp-4 font-serif text-[0.95rem] leading-relaxed text-ink/85">
          {manuscript.summary || <span className="text-muted italic">No summary yet.</span>}
        </p>
      )}
      <div className="mt-auto flex flex-wrap items-center justify-between gap-x-4 gap-y-2 pt-5 text-sm text-muted">
        {showAuthor ? (
          <span className="relative z-10">
            by <AuthorPopup author={manuscript.author} className="text-ink" />
          </span>
        ) : (
          <span>{manuscript.words.toLocaleString()} words</span>
        )}
        <CommentCount count={manuscript.comment_count} />
      </div>
      {actions ? (
        <div className="relative z-10 mt-3 flex flex-wrap gap-2 border-t border-ink/10 pt-3">
          {actions}
        </div>
      ) : null}
    </article>
  );
}

/** A strip of tape holding the note to the page. */
function Tape() {
  return (
    <span
      aria-hidden="true"
      className="absolute -top-2.5 left-1/2 h-5 w-20 -translate-x-1/2 -rotate-2 rounded-[2px] bg-surface/55 shadow-[0_1px_2px_rgb(var(--shadow)/0.12)] backdrop-blur-[1px] dark:bg-white/10"
    />
  );
}
