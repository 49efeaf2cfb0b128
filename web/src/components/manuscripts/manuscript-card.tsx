import type { ReactNode } from 'react';
import { CARD_COLOUR_CYCLE, MESSAGES, type InviteType, type Manuscript } from '@margins/common';
import { categoryLabel, readerUrl } from '../../api/manuscripts.ts';
import { AuthorPopup } from '../author/author-popup.tsx';
import { InkSpinner } from './upload-progress.tsx';
import { visibilityLabel } from './visibility.ts';
import { formatCount } from '../../lib/numbers.ts';

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

/** Lock, key, people, globe: from the most to the least restricted. */
const VISIBILITY_ICONS: Record<InviteType, string> = {
  private:
    'M6 8V6.5a4 4 0 1 1 8 0V8h1a1 1 0 0 1 1 1v7.5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V9a1 1 0 0 1 1-1h1Zm1.5 0h5V6.5a2.5 2.5 0 0 0-5 0V8Z',
  restricted:
    'M12.5 3a4.5 4.5 0 1 1-1.6 8.7L9.6 13H8v1.5H6.5V16H3v-3.1l5.3-5.3A4.5 4.5 0 0 1 12.5 3Zm1 2.5a1 1 0 1 0 0 2 1 1 0 0 0 0-2Z',
  logged_in:
    'M7 4a3 3 0 1 1 0 6 3 3 0 0 1 0-6Zm7 1a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5ZM1.5 16c0-3 2.5-4.5 5.5-4.5s5.5 1.5 5.5 4.5v.5h-11V16Zm12.5.5V16c0-1.5-.5-2.8-1.4-3.8l.9-.2c2.6 0 4.5 1.3 4.5 4v.5h-4Z',
  public:
    'M10 2.5a7.5 7.5 0 1 1 0 15 7.5 7.5 0 0 1 0-15Zm-5.8 6.7h2.7c.1-1.7.5-3.2 1.1-4.4a6 6 0 0 0-3.8 4.4Zm0 1.6a6 6 0 0 0 3.8 4.4 11 11 0 0 1-1.1-4.4H4.2Zm4.2 0c.2 2.3 1 4 1.6 4.6.6-.6 1.4-2.3 1.6-4.6H8.4Zm3.2-1.6C11.4 6.9 10.6 5.2 10 4.6c-.6.6-1.4 2.3-1.6 4.6h3.2Zm1.5 1.6a11 11 0 0 1-1.1 4.4 6 6 0 0 0 3.8-4.4h-2.7Zm2.7-1.6A6 6 0 0 0 12 4.8c.6 1.2 1 2.7 1.1 4.4h2.7Z',
};

/** Who may read the manuscript (Private, On request, Members, Public), with its icon. */
function VisibilityBadge({ visibility }: { visibility: InviteType }) {
  return (
    <span className="inline-flex items-center gap-1.5" data-visibility={visibility}>
      <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current opacity-70">
        <path d={VISIBILITY_ICONS[visibility]} />
      </svg>
      <span className="sr-only">Visibility: </span>
      {visibilityLabel(visibility)}
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
          <span>{formatCount(manuscript.words)} words</span>
        )}
        <span className="inline-flex items-center gap-4">
          <VisibilityBadge visibility={manuscript.visibility} />
          <CommentCount count={manuscript.comment_count} />
        </span>
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
