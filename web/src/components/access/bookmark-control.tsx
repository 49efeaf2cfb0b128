import { useState } from 'react';
import { MESSAGES, type Bookmark } from '@margins/common';
import { bookmarkErrorMessage, createBookmark, deleteBookmark } from '../../api/access.ts';
import { ApiError, errorMessage } from '../../api/client.ts';
import { useFlash, useToast } from '../feedback/feedback.tsx';

const BOOKMARK_ICON = 'M5 2.5h10A1.5 1.5 0 0 1 16.5 4v14l-6.5-4-6.5 4V4A1.5 1.5 0 0 1 5 2.5Z';
const OUTLINE_ICON =
  'M5 2.5h10A1.5 1.5 0 0 1 16.5 4v14l-6.5-4-6.5 4V4A1.5 1.5 0 0 1 5 2.5Zm0 1.5v11.3l5-3.1 5 3.1V4H5Z';

/**
 * The reader's bookmark control: "Add to reads" (POST /bookmark/:id → "Added to reads!"; 403,
 * 400 and 404 say SPEC §8's sentences) or, once it is a read, "In your reads" to remove it.
 */
export function BookmarkControl({
  manuscriptId,
  bookmark,
  onChange,
}: {
  manuscriptId: number;
  bookmark: Bookmark | null;
  onChange: (bookmark: Bookmark | null) => void;
}) {
  const flash = useFlash();
  const toast = useToast();
  const [busy, setBusy] = useState(false);

  const handleAdd = async () => {
    setBusy(true);
    try {
      onChange(await createBookmark(manuscriptId));
      toast(MESSAGES.addedToReads);
    } catch (error) {
      flash(bookmarkErrorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  const handleRemove = async () => {
    setBusy(true);
    try {
      await deleteBookmark(manuscriptId);
      onChange(null);
      toast('Removed from your reads.');
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) onChange(null);
      else flash(errorMessage(error, MESSAGES.serverCommunication));
    } finally {
      setBusy(false);
    }
  };

  if (bookmark) {
    return (
      <button
        type="button"
        className="btn btn-secondary"
        disabled={busy}
        onClick={() => void handleRemove()}
        title="Remove from your reads"
        data-bookmark-control="on"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current text-accent">
          <path d={BOOKMARK_ICON} />
        </svg>
        In your reads
      </button>
    );
  }
  return (
    <button
      type="button"
      className="btn btn-secondary"
      disabled={busy}
      onClick={() => void handleAdd()}
      data-bookmark-control="off"
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
        <path d={OUTLINE_ICON} fillRule="evenodd" />
      </svg>
      Add to reads
    </button>
  );
}
