import { useState } from 'react';
import type { CommentAuthor } from '@margins/common';
import type { ConnectionStatus } from '../../realtime/manuscript-room.ts';
import { MiniAvatar } from './comment-author.tsx';
import { useOptionalComments } from './comments-context.tsx';
import { ShareDialog } from './share-dialog.tsx';
import { ExportMenu } from './export-menu.tsx';
import { MarginFiltersBar } from './margin-filters.tsx';

/** Faces shown before "+N". */
const MAX_FACES = 5;

const STATUS_TEXT: Record<ConnectionStatus, string> = {
  live: 'Live',
  connecting: 'Connecting…',
  reconnecting: 'Reconnecting…',
};

/** The connection to the room: a green dot when live, amber and pulsing while it is not. */
function ConnectionIndicator({ status }: { status: ConnectionStatus }) {
  const live = status === 'live';
  return (
    <span
      role="status"
      className="inline-flex items-center gap-1.5 text-xs text-muted"
      data-connection={status}
      title={
        live
          ? 'New comments appear as they are written'
          : 'Comments will catch up when the connection is back'
      }
    >
      <span className="relative flex size-2">
        {live ? null : (
          <span className="absolute inline-flex size-full animate-ping rounded-full bg-amber-500/60" />
        )}
        <span
          className={`relative inline-flex size-2 rounded-full ${live ? 'bg-success' : 'bg-amber-500'}`}
        />
      </span>
      {STATUS_TEXT[status]}
    </span>
  );
}

/** The strip of connected users: overlapping faces, names on hover and for screen readers. */
function PresenceStrip({
  users,
  currentUserId,
}: {
  users: CommentAuthor[];
  currentUserId: number | null;
}) {
  const others = users.filter((user) => user.id !== currentUserId);
  if (others.length === 0) return null;
  const names = others.map((user) => user.display_name).join(', ');
  return (
    <span className="inline-flex items-center gap-2" data-testid="presence-strip">
      <span className="flex -space-x-1.5" aria-hidden="true">
        {others.slice(0, MAX_FACES).map((user) => (
          <span key={user.id} title={user.display_name} className="rounded-full ring-2 ring-page">
            <MiniAvatar
              name={user.display_name}
              picture={user.picture}
              className="size-7 text-xs"
            />
          </span>
        ))}
        {others.length > MAX_FACES ? (
          <span className="inline-flex size-7 items-center justify-center rounded-full bg-sunken text-[0.6875rem] font-semibold text-muted ring-2 ring-page">
            +{others.length - MAX_FACES}
          </span>
        ) : null}
      </span>
      <span className="text-xs text-muted">
        <span className="sr-only">Reading now: {names}. </span>
        <span aria-hidden="true">
          {others.length === 1
            ? `${others[0]!.display_name} is reading`
            : `${others.length} reading now`}
        </span>
      </span>
    </span>
  );
}

const SHARE_ICON =
  'M14.5 2.5a3 3 0 1 1-2.6 4.5L7.8 9.2a3 3 0 0 1 0 1.6l4.1 2.2a3 3 0 1 1-.7 1.4l-4.1-2.2a3 3 0 1 1 0-4.4l4.1-2.2a3 3 0 0 1 3.3-3.1Z';
const FLAG_ICON = 'M4 2.5h1.6v1h9.9l-2.3 4 2.3 4H5.6v6.5H4v-15.5Z';

/**
 * The reader's live strip under the title: who else is reading, the connection, and for
 * everyone but the author Share (the reading link) and Report the manuscript.
 */
export function ReaderToolbar({ title, readerUrl }: { title: string; readerUrl: string }) {
  const comments = useOptionalComments();
  const [sharing, setSharing] = useState(false);
  if (!comments?.enabled) return null;
  const { users, status, currentUserId, isOwner, askReport, manuscriptId } = comments;
  return (
    <div
      className="mt-5 flex flex-wrap items-center justify-center gap-x-4 gap-y-2"
      data-reader-toolbar
    >
      <PresenceStrip users={users} currentUserId={currentUserId} />
      <ConnectionIndicator status={status} />
      <span className="flex items-center gap-1">
        {/* The author shares (links, invites) from their own tools. */}
        {isOwner ? null : (
          <button
            type="button"
            className="btn btn-ghost min-h-8 px-3 text-xs"
            onClick={() => setSharing(true)}
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-3.5 fill-current">
              <path d={SHARE_ICON} />
            </svg>
            Share
          </button>
        )}
        {currentUserId !== null && !isOwner ? (
          <button
            type="button"
            className="btn btn-ghost min-h-8 px-3 text-xs text-muted"
            onClick={() => askReport({ model: 'manuscript', id: manuscriptId, label: title })}
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-3.5 fill-current">
              <path d={FLAG_ICON} />
            </svg>
            Report
          </button>
        ) : null}
        {isOwner ? <ExportMenu manuscriptId={manuscriptId} /> : null}
      </span>
      <div className="basis-full">
        <MarginFiltersBar />
      </div>
      {sharing ? (
        <ShareDialog
          url={new URL(readerUrl, window.location.origin).toString()}
          title={title}
          onClose={() => setSharing(false)}
        />
      ) : null}
    </div>
  );
}
