import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { Manuscript } from '@margins/common';
import { errorMessage } from '../../api/client.ts';
import { archiveManuscript } from '../../api/manuscripts.ts';
import { ConfirmDialog } from '../dialog.tsx';
import { useFlash } from '../feedback/feedback.tsx';

/**
 * Delete (archive) with a confirmation: DELETE /manuscript/:id. The manuscript leaves every
 * list and its readers lose it; the server keeps it.
 */
export function ArchiveButton({
  manuscript,
  onArchived,
  className = 'btn btn-ghost',
  label = 'Delete',
}: {
  manuscript: Manuscript;
  onArchived: () => void;
  className?: string;
  label?: string;
}) {
  const flash = useFlash();
  const [asking, setAsking] = useState(false);
  const archive = useMutation({ mutationFn: () => archiveManuscript(manuscript.id) });

  const handleConfirm = async () => {
    try {
      await archive.mutateAsync();
      setAsking(false);
      onArchived();
    } catch (error) {
      setAsking(false);
      flash(errorMessage(error));
    }
  };

  return (
    <>
      <button
        type="button"
        className={className}
        onClick={() => setAsking(true)}
        aria-label={`${label} ${manuscript.title}`}
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
          <path d="M7.5 2.5h5l.75 1.5H17v1.5H3V4h3.75l.75-1.5ZM4.5 7h11l-.8 9.2a1.5 1.5 0 0 1-1.5 1.3H6.8a1.5 1.5 0 0 1-1.5-1.3L4.5 7Zm1.65 1.5.65 7.5h6.4l.65-7.5h-7.7Z" />
        </svg>
        {label}
      </button>
      {asking ? (
        <ConfirmDialog
          title={`Delete “${manuscript.title}”?`}
          confirmLabel={archive.isPending ? 'Deleting…' : 'Delete manuscript'}
          cancelLabel="Keep it"
          tone="danger"
          busy={archive.isPending}
          onConfirm={() => void handleConfirm()}
          onCancel={() => setAsking(false)}
        >
          <p>
            It leaves your dashboard and your readers can no longer open it. We keep an archived
            copy, so write to us if you change your mind.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
