import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MESSAGES, type Bookmark, type Invite } from '@margins/common';
import {
  acceptErrorMessage,
  acceptInvite,
  accessKeys,
  declineErrorMessage,
  declineInvite,
  deleteBookmark,
  fetchPendingInvites,
  fetchReads,
  readBookmarks,
  readInvites,
} from '../../api/access.ts';
import { ApiError, errorMessage } from '../../api/client.ts';
import { formatDate, formatShortDate } from '../../lib/dates.ts';
import { useFlash, useToast } from '../feedback/feedback.tsx';
import { ManuscriptCard } from '../manuscripts/manuscript-card.tsx';
import { visibilityLabel } from '../manuscripts/visibility.ts';

/**
 * The dashboard's reads (with progress) and pending invites: seeded from the page data, kept
 * in the query cache so accepting an invite moves it to the reads at once.
 */
export function useDashboardAccess(
  initialReads: unknown,
  initialInvites: unknown,
  enabled: boolean,
) {
  const queryClient = useQueryClient();
  const [seedReads] = useState(() =>
    Array.isArray(initialReads) ? readBookmarks(initialReads) : undefined,
  );
  const [seedInvites] = useState(() =>
    Array.isArray(initialInvites) ? readInvites(initialInvites) : undefined,
  );
  const reads = useQuery({
    queryKey: accessKeys.reads,
    queryFn: fetchReads,
    initialData: seedReads,
    enabled,
  });
  const invites = useQuery({
    queryKey: accessKeys.invites,
    queryFn: fetchPendingInvites,
    initialData: seedInvites,
    enabled,
  });

  const setReads = (change: (current: Bookmark[]) => Bookmark[]) =>
    queryClient.setQueryData<Bookmark[]>(accessKeys.reads, (current = []) => change(current));
  const setInvites = (change: (current: Invite[]) => Invite[]) =>
    queryClient.setQueryData<Invite[]>(accessKeys.invites, (current = []) => change(current));

  return {
    reads: reads.data ?? [],
    invites: invites.data ?? [],
    /** A new read (an accepted invite) goes first; one already there is replaced. */
    addRead: (bookmark: Bookmark) =>
      setReads((current) => [
        bookmark,
        ...current.filter((item) => item.manuscript_id !== bookmark.manuscript_id),
      ]),
    removeRead: (manuscriptId: number) =>
      setReads((current) => current.filter((item) => item.manuscript_id !== manuscriptId)),
    removeInvite: (inviteId: number) =>
      setInvites((current) => current.filter((item) => item.id !== inviteId)),
  };
}

/** How far the reader got, as a bar and a few words. */
function ReadingProgressBar({ bookmark }: { bookmark: Bookmark }) {
  const percent = Math.max(0, Math.min(100, Math.round(bookmark.progress.percent ?? 0)));
  const started = bookmark.progress.percent !== null && bookmark.progress.percent > 0;
  const label = !started ? 'Not started' : percent >= 100 ? 'Finished' : `${percent}% read`;
  return (
    <div className="w-full" data-reading-progress-bar>
      <p
        className="mb-1 text-xs text-muted"
        title={
          bookmark.progress.updated
            ? `Last read ${formatDate(bookmark.progress.updated)}`
            : undefined
        }
      >
        {label}
      </p>
      <div
        className="h-1.5 overflow-hidden rounded-full bg-ink/10"
        role="progressbar"
        aria-label={`Reading progress of ${bookmark.manuscript.title}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div className="h-full rounded-full bg-accent" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

/** The reads as note cards with their progress and a "Remove" button. */
export function ReadsList({
  reads,
  onRemoved,
}: {
  reads: Bookmark[];
  onRemoved: (manuscriptId: number) => void;
}) {
  const flash = useFlash();
  const toast = useToast();
  const [busy, setBusy] = useState<number | null>(null);

  const handleRemove = async (bookmark: Bookmark) => {
    setBusy(bookmark.manuscript_id);
    try {
      await deleteBookmark(bookmark.manuscript_id);
      onRemoved(bookmark.manuscript_id);
      toast('Removed from your reads.');
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) onRemoved(bookmark.manuscript_id);
      else flash(errorMessage(error, MESSAGES.serverCommunication));
    } finally {
      setBusy(null);
    }
  };

  return (
    <ul className="grid gap-x-6 gap-y-9 pt-2 sm:grid-cols-2 lg:grid-cols-3" aria-label="Reads">
      {reads.map((bookmark, index) => (
        <li key={bookmark.manuscript_id} data-read={bookmark.manuscript_id}>
          <ManuscriptCard
            manuscript={bookmark.manuscript}
            index={index}
            actions={
              <div className="flex w-full items-end gap-3">
                <ReadingProgressBar bookmark={bookmark} />
                <button
                  type="button"
                  className="btn btn-ghost min-h-8 shrink-0 px-3"
                  disabled={busy === bookmark.manuscript_id}
                  onClick={() => void handleRemove(bookmark)}
                  aria-label={`Remove ${bookmark.manuscript.title} from reads`}
                >
                  Remove
                </button>
              </div>
            }
          />
        </li>
      ))}
    </ul>
  );
}

/** The pending invites: who invited, to what, with Accept ("Added to reads!") and Decline. */
export function PendingInvitesList({
  invites,
  onAccepted,
  onGone,
}: {
  invites: Invite[];
  onAccepted: (invite: Invite, bookmark: Bookmark) => void;
  onGone: (inviteId: number) => void;
}) {
  const flash = useFlash();
  const toast = useToast();
  const [busy, setBusy] = useState<number | null>(null);

  const handleAccept = async (invite: Invite) => {
    setBusy(invite.id);
    try {
      const bookmark = await acceptInvite(invite.id);
      onAccepted(invite, bookmark);
      toast(MESSAGES.addedToReads);
    } catch (error) {
      flash(acceptErrorMessage(error));
      if (error instanceof ApiError && error.status === 404) onGone(invite.id);
    } finally {
      setBusy(null);
    }
  };

  const handleDecline = async (invite: Invite) => {
    setBusy(invite.id);
    try {
      await declineInvite(invite.id);
      onGone(invite.id);
      toast('Invite declined.');
    } catch (error) {
      flash(declineErrorMessage(error));
      if (error instanceof ApiError && error.status === 404) onGone(invite.id);
    } finally {
      setBusy(null);
    }
  };

  return (
    <ul className="grid gap-4 sm:grid-cols-2" aria-label="Pending invites">
      {invites.map((invite) => (
        <li
          key={invite.id}
          className="card flex flex-col gap-4 p-5"
          data-pending-invite={invite.id}
        >
          <div>
            <p className="eyebrow">
              {visibilityLabel(invite.invite_type)} · {formatShortDate(invite.created)}
            </p>
            <h3 className="mt-2 font-serif text-xl leading-snug font-semibold">
              {invite.manuscript.title}
            </h3>
            <p className="mt-1 text-sm text-muted">
              {invite.manuscript.author.display_name} invited you to read it.
            </p>
          </div>
          <div className="mt-auto flex flex-wrap gap-2">
            <button
              type="button"
              className="btn btn-primary"
              disabled={busy === invite.id}
              onClick={() => void handleAccept(invite)}
              aria-label={`Accept the invite to ${invite.manuscript.title}`}
            >
              Accept
            </button>
            <button
              type="button"
              className="btn btn-secondary"
              disabled={busy === invite.id}
              onClick={() => void handleDecline(invite)}
              aria-label={`Decline the invite to ${invite.manuscript.title}`}
            >
              Decline
            </button>
          </div>
        </li>
      ))}
    </ul>
  );
}
