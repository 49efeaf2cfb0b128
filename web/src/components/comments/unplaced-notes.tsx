import { memo } from 'react';
import { CommentThread } from './comment-thread.tsx';
import { useOptionalComments } from './comments-context.tsx';

/**
 * Notes whose passage could not be found in this draft (the author changed or removed it):
 * kept and listed under the text with their quote, never dropped.
 */
export const UnplacedNotes = memo(function UnplacedNotes() {
  const comments = useOptionalComments();
  if (!comments || comments.orphans.length === 0) return null;
  return (
    <section
      aria-labelledby="unplaced-notes-title"
      className="mx-auto mt-14 max-w-[65ch] border-t border-line pt-6"
      data-testid="unplaced-notes"
    >
      <h2 id="unplaced-notes-title" className="eyebrow">
        Unplaced notes
      </h2>
      <p className="mt-2 text-sm text-muted">
        The passages these notes were written on changed in a newer draft, so they could not be
        placed in the text. Here they are with the words they were about.
      </p>
      <div className="mt-5 grid gap-4 sm:grid-cols-2">
        {comments.orphans.map((thread) => (
          <CommentThread key={thread.id} thread={thread} showQuote />
        ))}
      </div>
    </section>
  );
});
