// The reading page: the text with its gates, contents, bookmarks, margin notes and dialogs.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import type { ReaderResponse } from '@margins/common';
import { readerUrl } from '../../../api/manuscripts.ts';
import { useReaderAccess } from '../../../components/access/reader-access.tsx';
import {
  CommentsButton,
  CommentsDrawer,
  CommentsProvider,
  MarginColumn,
  UnplacedNotes,
} from '../../../components/comments/index.ts';
import { Dialog } from '../../../components/dialog.tsx';
import { InkSpinner } from '../../../components/manuscripts/upload-progress.tsx';
import { firstScreenInApp } from '../../../lib/first-screen.ts';
import { reloadPage } from '../../../lib/navigation.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { usePageConfig } from '../../../page-config.ts';
import { NotFoundPage } from '../../not-found.tsx';
import { BookmarksPanel } from './bookmarks-panel.tsx';
import { bookmarkKey, usePageBookmarks, type PageBookmark } from './page-bookmarks.ts';
import { ReaderBottomBar } from './reader-bottom-bar.tsx';
import {
  AwaitingApprovalGate,
  LoginGate,
  MatureGate,
  ModerationGate,
  QuestionnaireGate,
  StillInking,
} from './reader-gates.tsx';
import { ReaderHeader } from './reader-header.tsx';
import { blockText, jumpTo, useReaderData } from './reader-helpers.ts';
import { ReaderEditDialog } from './reader-edit-dialog.tsx';
import { ReaderText } from './reader-text.tsx';
import { useAutoBookmark, useSidebarFollows } from './reader-follow.ts';
import { ResumeBanner } from './resume-banner.tsx';
import { currentSectionId, TableOfContents } from './table-of-contents.tsx';
import {
  PercentRead,
  PositionedAccessTools,
  ReadingProgressBar,
} from './reader-position-parts.tsx';
import { blocksOf, usePositionValue, useReadingPositionStore } from './use-reading-position.ts';
import { StaffOpeningsNotice } from './staff-openings-notice.tsx';
import { useLiveModerationFlag } from './use-live-moderation-flag.ts';
import './reader-book.css';
import { useBookMode } from './use-book-mode.ts';

/**
 * The reading page (/manuscript/document/reader/:id): the text in a reading column, the
 * table of contents that follows the reading position, page bookmarks, the progress bar,
 * the moderation and 18+ gates, and the author's edit and delete. Highlights and comments
 * (components/comments): marks in the text, threads in the right-hand margin (a drawer on
 * phones and tablets), the strip of connected users, share and report.
 */
export function ReaderPage() {
  const { view, loading } = useReaderData();
  const { currentUserId } = usePageConfig();
  const { pathname } = useLocation();
  const [firstScreen] = useState(firstScreenInApp);
  if (view) return <Reader view={view} />;
  if (loading && firstScreen !== '') {
    // The server's own markup (the converters' allow-listed HTML), as it was before the app ran.
    return <div dangerouslySetInnerHTML={{ __html: firstScreen }} />;
  }
  if (loading) {
    return (
      <p className="my-24 flex justify-center" role="status">
        <InkSpinner className="size-6" />
        <span className="sr-only">Loading the manuscript…</span>
      </p>
    );
  }
  // Logged out: the manuscript may be for members or invited readers only.
  if (currentUserId === null) return <LoginGate next={pathname} />;
  return <NotFoundPage />;
}

function Reader({ view }: { view: ReaderResponse }) {
  const config = usePageConfig();
  const [manuscript, setManuscript] = useState(view.manuscript);
  const [moderationAccepted, setModerationAccepted] = useState(false);
  const [editing, setEditing] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const boxRef = useRef<HTMLDivElement>(null);
  const sidebarRef = useRef<HTMLDivElement>(null);
  const [blockIds, setBlockIds] = useState<string[]>([]);
  const access = useReaderAccess(view.manuscript_id);
  const isAuthor =
    config.currentUserId !== null && config.currentUserId === view.manuscript_user_id;
  useDocumentTitle(manuscript.title);

  const moderation = useLiveModerationFlag(
    view.manuscript_id,
    { restricted: view.restricted_moderation, reason: view.moderationReason },
    isAuthor,
  );
  const gated = moderation.restricted && !moderationAccepted;
  const textShown = !gated && !view.restricted_mature && view.html !== '';
  const html = textShown ? view.html : '';
  useBookMode(textShown);

  useLayoutEffect(() => {
    setBlockIds(blocksOf(boxRef.current).map((block) => block.id));
  }, [html]);

  // The position moves on almost every scrolled frame: the page renders again only when what
  // it shows changes (the chapter); the bar, the percents and the access tools follow it
  // themselves (reader-position-parts.tsx).
  const position = useReadingPositionStore(boxRef, html);
  const hasPosition = usePositionValue(position, (at) => at.blockIndex >= 0);
  const blockIndexOfId = useMemo(
    () => new Map(blockIds.map((id, index) => [id, index])),
    [blockIds],
  );
  const sectionId = usePositionValue(position, (at) =>
    currentSectionId(view.toc, blockIndexOfId, at.blockIndex),
  );
  const sectionTitle = view.toc.find((entry) => entry.id === sectionId)?.text ?? null;

  useSidebarFollows(sidebarRef, sectionId);

  const { bookmarks, add, track, remove } = usePageBookmarks(
    bookmarkKey(config.currentUserId, view.manuscript_id),
  );
  const [resumeFrom] = useState(() => bookmarks.find((bookmark) => bookmark.auto) ?? null);
  const [resumeDismissed, setResumeDismissed] = useState(false);

  useAutoBookmark(boxRef, position, textShown, track);

  const goToBlock = useCallback((index: number) => {
    jumpTo(blocksOf(boxRef.current)[index]);
  }, []);

  const goToId = useCallback((id: string) => {
    const block = blocksOf(boxRef.current).find((candidate) => candidate.id === id);
    jumpTo(block);
  }, []);

  // A #block-id in the address opens the text there.
  useEffect(() => {
    if (!html) return;
    const id = decodeURIComponent(window.location.hash.slice(1));
    if (id) goToId(id);
  }, [html, goToId]);

  const runAfterDrawer = (action: () => void) => {
    if (!drawerOpen) {
      action();
      return;
    }
    setDrawerOpen(false);
    // Once the drawer has closed and handed the focus back.
    window.setTimeout(action, 0);
  };

  const handleAddBookmark = () => {
    const { blockIndex } = position.get();
    if (blockIndex < 0) return;
    add(blockIndex, blockText(blocksOf(boxRef.current)[blockIndex]));
  };

  const handleJump = (bookmark: PageBookmark) => runAfterDrawer(() => goToBlock(bookmark.idx));
  const handleNavigate = (id: string) => runAfterDrawer(() => goToId(id));

  const beforeResume = usePositionValue(
    position,
    (at) => resumeFrom !== null && at.blockIndex < resumeFrom.idx,
  );
  const showResume =
    textShown && resumeFrom !== null && resumeFrom.idx > 0 && !resumeDismissed && beforeResume;
  const loginUrl = `/auth/login?next=${encodeURIComponent(readerUrl(view.manuscript_id))}`;

  const contents = (
    <TableOfContents
      entries={textShown ? view.toc : []}
      currentId={sectionId}
      onNavigate={handleNavigate}
    />
  );
  const bookmarkList = (
    <BookmarksPanel
      bookmarks={bookmarks}
      canAdd={textShown && hasPosition}
      onAdd={handleAddBookmark}
      onJump={handleJump}
      onRemove={remove}
    />
  );

  let body;
  if (gated) {
    body = (
      <ModerationGate reason={moderation.reason} onContinue={() => setModerationAccepted(true)} />
    );
  } else if (view.restricted_mature) {
    body = (
      <MatureGate
        loggedIn={config.currentUserId !== null}
        loginUrl={loginUrl}
        onCertified={reloadPage}
      />
    );
  } else if (access?.gate === 'questionnaire') {
    body = (
      <QuestionnaireGate
        survey={access.questionnaire}
        manuscriptId={view.manuscript_id}
        userId={config.currentUserId}
        loginUrl={loginUrl}
      />
    );
  } else if (access?.gate === 'awaiting_approval') {
    body = <AwaitingApprovalGate />;
  } else if (view.html === '' && manuscript.inking) {
    body = <StillInking manuscriptId={view.manuscript_id} />;
  } else if (view.html === '') {
    body = (
      <p className="my-16 text-center font-serif text-muted">This manuscript has no text yet.</p>
    );
  } else {
    body = (
      <ReaderText
        boxRef={boxRef}
        html={html}
        manuscriptId={view.manuscript_id}
        isAuthor={isAuthor}
      />
    );
  }

  const page = (
    <div className="relative">
      {textShown ? <ReadingProgressBar store={position} /> : null}

      <div className="mx-auto w-full max-w-[80rem] px-4 pt-8 pb-10 sm:px-6 sm:pt-12 lg:grid lg:grid-cols-[15rem_minmax(0,1fr)] lg:gap-10 lg:pb-16 xl:grid-cols-[15rem_minmax(0,1fr)_16rem]">
        {/* While a gate stands there is nothing to navigate: the column stays, empty. */}
        {textShown ? (
          <aside className="hidden lg:block" aria-label="Contents and bookmarks">
            {/*
              The contents scroll on their own; the bookmarks stay in sight below them. Fixed
              in the window, not sticky: a sticky box is placed again on every scrolled frame
              (the browser's compositing inputs and pre-paint for it, and its repaints), which
              on a book cost more than the rest of the frame together (issue 18). The site
              footer, which is above it (z-20), slides over it at the end of the page. Above
              the text in paint order (z-10): every box painted after a layer that might
              overlap it becomes a layer of its own — the heat strip, the margin column, each
              card — which made scrolling with the margin column stutter.
            */}
            <div className="fixed top-28 z-10 flex max-h-[calc(100dvh-8.5rem)] w-60 flex-col pb-6">
              <div ref={sidebarRef} className="min-h-0 flex-1 overflow-y-auto pr-2 pb-2">
                {contents}
              </div>
              <div className="mt-4 max-h-[45%] shrink-0 overflow-y-auto border-t border-line pt-5 pr-2">
                {bookmarkList}
                <p className="mt-4 text-xs text-muted" aria-hidden="true">
                  <PercentRead store={position} />% read
                </p>
              </div>
            </div>
          </aside>
        ) : (
          <div className="hidden lg:block" aria-hidden="true" />
        )}

        <article
          className="min-w-0"
          aria-labelledby="reader-title"
          data-manuscript-id={view.manuscript_id}
        >
          <ReaderHeader
            manuscript={manuscript}
            manuscriptId={view.manuscript_id}
            words={view.words}
            isAuthor={isAuthor}
            onEdit={() => setEditing(true)}
            accessTools={
              <PositionedAccessTools
                store={position}
                manuscript={manuscript}
                access={access}
                isAuthor={isAuthor}
                userId={config.currentUserId}
                textShown={textShown}
              />
            }
          />

          {isAuthor ? <StaffOpeningsNotice /> : null}

          {showResume && resumeFrom ? (
            <ResumeBanner
              resumeFrom={resumeFrom}
              onContinue={() => {
                setResumeDismissed(true);
                goToBlock(resumeFrom.idx);
              }}
              onDismiss={() => setResumeDismissed(true)}
            />
          ) : null}

          {body}
          <UnplacedNotes />
        </article>

        {/* The margin: each highlight's comments beside its passage (wide screens). */}
        <aside
          aria-label="Margin notes"
          className="relative hidden [contain:size_layout_style] xl:block"
          data-margin-column
        >
          {textShown ? <MarginColumn /> : null}
        </aside>
      </div>

      {/* Phones and tablets: contents and bookmarks in a drawer, from a bar that stays at
        the bottom of the window while the text is in view. */}
      {textShown ? (
        <ReaderBottomBar
          sectionTitle={sectionTitle}
          percentRead={<PercentRead store={position} />}
          onOpenContents={() => setDrawerOpen(true)}
          onAddBookmark={handleAddBookmark}
        />
      ) : null}

      {textShown ? (
        <>
          {/* Tablets: no bottom bar and no margin column, so a button of its own. */}
          <CommentsButton className="fixed right-6 bottom-6 z-30 hidden shadow-lift lg:inline-flex xl:hidden" />
          <CommentsDrawer />
        </>
      ) : null}

      {drawerOpen ? (
        <Dialog
          title="Contents & bookmarks"
          placement="left"
          onClose={() => setDrawerOpen(false)}
          testId="reader-drawer"
        >
          <div className="space-y-8">
            {bookmarkList}
            <TableOfContents
              entries={textShown ? view.toc : []}
              currentId={sectionId}
              onNavigate={handleNavigate}
              revealCurrent
            />
          </div>
        </Dialog>
      ) : null}

      {editing ? (
        <ReaderEditDialog
          manuscript={manuscript}
          onSaved={setManuscript}
          onClose={() => setEditing(false)}
        />
      ) : null}
    </div>
  );

  return (
    <CommentsProvider
      manuscriptId={view.manuscript_id}
      manuscriptOwnerId={view.manuscript_user_id}
      currentUserId={config.currentUserId}
      boxRef={boxRef}
      html={html}
    >
      {page}
    </CommentsProvider>
  );
}
