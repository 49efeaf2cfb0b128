// The reader's title block: category and genres, title, author, length, summary and tools.
import type { ReactNode } from 'react';
import type { Manuscript } from '@margins/common';
import { categoryLabel, readerUrl } from '../../../api/manuscripts.ts';
import { AuthorPopup } from '../../../components/author/author-popup.tsx';
import { ReaderToolbar } from '../../../components/comments/index.ts';
import { ArchiveButton } from '../../../components/manuscripts/archive-button.tsx';
import { MatureBadge } from '../../../components/manuscripts/manuscript-card.tsx';
import { ContributeButton } from '../../../components/payments/contribute-button.tsx';
import { loadPage } from '../../../lib/navigation.ts';
import { readingTime } from './reader-helpers.ts';
import { formatCount } from '../../../lib/numbers.ts';

/** The header above the text: what the manuscript is, the author's tools and the reader's. */
export function ReaderHeader({
  manuscript,
  manuscriptId,
  words,
  isAuthor,
  onEdit,
  accessTools,
}: {
  manuscript: Manuscript;
  manuscriptId: number;
  words: number;
  isAuthor: boolean;
  onEdit: () => void;
  /** The reader's access controls (share, surveys, bookmark, invites), under the tools. */
  accessTools: ReactNode;
}) {
  return (
    <header className="reader-header mx-auto max-w-[65ch] text-center">
      <p className="eyebrow">
        {[categoryLabel(manuscript.category), ...manuscript.genres.map((genre) => genre.name)].join(
          ' · ',
        )}
      </p>
      <h1
        id="reader-title"
        className="mt-3 text-3xl leading-tight font-semibold tracking-tight text-balance sm:text-[2.75rem]"
      >
        {manuscript.title}
      </h1>
      <p className="mt-3 text-muted">
        by <AuthorPopup author={manuscript.author} className="text-ink" />
      </p>
      <p className="mt-2 flex flex-wrap items-center justify-center gap-x-3 gap-y-1 text-sm text-muted">
        <span>{formatCount(words)} words</span>
        <span aria-hidden="true">·</span>
        <span>{readingTime(words)}</span>
        {manuscript.nsfw ? <MatureBadge /> : null}
      </p>
      {manuscript.summary ? (
        <p className="mx-auto mt-5 max-w-[52ch] font-serif leading-relaxed text-muted italic">
          {manuscript.summary}
        </p>
      ) : null}
      {isAuthor ? (
        <div className="mt-6 flex flex-wrap justify-center gap-2" data-author-tools>
          <button type="button" className="btn btn-secondary" onClick={onEdit}>
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
              <path d="m13.6 2.9 3.5 3.5-9.6 9.6H4v-3.5l9.6-9.6Zm0 2.1-8.1 8.1v1.4h1.4l8.1-8.1-1.4-1.4Z" />
            </svg>
            Edit details
          </button>
          <ArchiveButton
            manuscript={manuscript}
            className="btn btn-ghost"
            onArchived={() => loadPage('/dashboard')}
          />
        </div>
      ) : null}
      {accessTools}
      {!isAuthor ? <ContributeButton manuscriptId={manuscriptId} /> : null}
      <ReaderToolbar title={manuscript.title} readerUrl={readerUrl(manuscriptId)} />
      <div aria-hidden="true" className="reader-rule" />
    </header>
  );
}
