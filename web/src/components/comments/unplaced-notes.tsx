import { memo } from 'react';
import { CommentThread } from './comment-thread.tsx';
import { useOptionalComments, type Thread } from './comments-context.tsx';
import { isWithheldThread } from './threads.ts';

/**
 * Notes without a place in the text, listed under it and never dropped: those whose passage
 * could not be found in this draft (the author changed or removed it), with their quote; and
 * other readers' private comments (private comments on), which come without their passage or
 * its place.
 */
export const UnplacedNotes = memo(function UnplacedNotes() {
  const comments = useOptionalComments();
  if (!comments || comments.orphans.length === 0) return null;
  const withheld = comments.orphans.filter(isWithheldThread);
  const unplaced = comments.orphans.filter((thread) => !isWithheldThread(thread));
  return (
    <>
      {unplaced.length > 0 ? (
        <NotesSection
          id="unplaced-notes"
          title="Unplaced notes"
          explanation="The passages these notes were written on changed in a newer draft, so they could not be placed in the text. Here they are with the words they were about."
          threads={unplaced}
        />
      ) : null}
      {withheld.length > 0 ? (
        <NotesSection
          id="private-notes"
          title="Private comments"
          explanation="The author keeps comments private: other readers' notes are shown without their words or the passage they are on."
          threads={withheld}
        />
      ) : null}
    </>
  );
});

function NotesSection({
  id,
  title,
  explanation,
  threads,
}: {
  id: string;
  title: string;
  explanation: string;
  threads: Thread[];
}) {
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="mx-auto mt-14 max-w-[65ch] border-t border-line pt-6"
      data-testid={id}
    >
      <h2 id={`${id}-title`} className="eyebrow">
        {title}
      </h2>
      <p className="mt-2 text-sm text-muted">{explanation}</p>
      <div className="mt-5 grid gap-4 sm:grid-cols-2">
        {threads.map((thread) => (
          <CommentThread key={thread.id} thread={thread} showQuote />
        ))}
      </div>
    </section>
  );
}
