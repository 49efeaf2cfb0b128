import { useState } from 'react';
import { MESSAGES, type Comment } from '@margins/common';
import { linkify } from '../../lib/linkify.tsx';
import { CommentAuthorName } from './comment-author.tsx';
import { CommentEditor } from './comment-editor.tsx';
import { CommentExtras } from './comment-extras.tsx';
import { CommentTime } from './comment-time.tsx';
import { useComments } from './comments-context.tsx';

/** An edit counts when the text changed well after it was written. */
const EDIT_GRACE_MS = 5_000;

function wasEdited(comment: Comment): boolean {
  return Date.parse(comment.updated) - Date.parse(comment.created) > EDIT_GRACE_MS;
}

const ICONS = {
  up: 'M10 4.5 16 12H4l6-7.5Z',
  down: 'M10 15.5 4 8h12l-6 7.5Z',
};

/** The up/down votes and the rank between them: one vote per reader, changeable. */
function Votes({ comment, canVote }: { comment: Comment; canVote: boolean }) {
  const { rank } = useComments();
  const mine = comment.my_vote ?? 0;
  const button = (dir: 'up' | 'down') => {
    const pressed = dir === 'up' ? mine === 1 : mine === -1;
    return (
      <button
        type="button"
        onClick={() => rank(comment, dir)}
        disabled={!canVote}
        aria-pressed={canVote ? pressed : undefined}
        aria-label={dir === 'up' ? 'Vote up' : 'Vote down'}
        title={canVote ? undefined : 'You can’t vote on this comment'}
        className={`inline-flex size-7 cursor-pointer items-center justify-center rounded-full transition-colors disabled:cursor-default disabled:opacity-40 ${
          pressed
            ? 'bg-accent-soft text-accent'
            : 'text-muted enabled:hover:bg-sunken enabled:hover:text-ink'
        }`}
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-3.5 fill-current">
          <path d={ICONS[dir]} />
        </svg>
      </button>
    );
  };
  return (
    <span className="inline-flex items-center" data-votes>
      {button('up')}
      <span
        className={`min-w-5 text-center text-xs font-semibold tabular-nums ${
          comment.rank > 0 ? 'text-ink' : 'text-muted'
        }`}
        aria-label={`Rank ${comment.rank}`}
        data-rank
      >
        {comment.rank}
      </span>
      {button('down')}
    </span>
  );
}

/** Small text buttons under a comment. */
function Action({
  label,
  onClick,
  tone = 'default',
}: {
  label: string;
  onClick: () => void;
  tone?: 'default' | 'danger';
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      className={`cursor-pointer rounded px-1.5 py-0.5 text-xs font-medium transition-colors hover:bg-sunken ${
        tone === 'danger' ? 'text-muted hover:text-danger' : 'text-muted hover:text-ink'
      }`}
    >
      {label}
    </button>
  );
}

/** The text of a comment as this reader may see it: private, flagged, or plain. */
function CommentBody({ comment }: { comment: Comment }) {
  const [revealed, setRevealed] = useState(false);
  if (comment.private) {
    return (
      <p className="font-serif text-sm leading-relaxed text-muted italic" data-private-comment>
        {MESSAGES.privateComments}
      </p>
    );
  }
  if (comment.moderation_flag && !revealed) {
    return (
      <div
        className="rounded-md border border-dashed border-line bg-sunken/60 px-2.5 py-2 text-xs text-muted"
        data-flagged-comment
      >
        <p>
          <span className="font-semibold text-ink">Hidden by the moderators.</span> Reason:{' '}
          {comment.moderation_reason || MESSAGES.noReasonGiven}
        </p>
        <button
          type="button"
          onClick={() => setRevealed(true)}
          className="mt-1 cursor-pointer font-semibold text-accent underline decoration-dotted underline-offset-2 hover:text-accent-strong"
        >
          Show comment
        </button>
      </div>
    );
  }
  return (
    <p
      className="font-serif text-[0.9375rem] leading-relaxed break-words whitespace-pre-line text-ink"
      data-comment-text
    >
      {linkify(comment.comment)}
    </p>
  );
}

/**
 * One comment: its author (opens their card), its time, its text, the votes and what this
 * reader may do — edit and delete their own, delete any as the manuscript's owner, report
 * someone else's.
 */
export function CommentCard({ comment }: { comment: Comment }) {
  const { currentUserId, isOwner, editor, openEditor, askDelete, askReport } = useComments();
  const own = currentUserId !== null && comment.author_id === currentUserId;
  const editing = editor?.kind === 'edit' && editor.commentId === comment.id;
  const canVote = currentUserId !== null && !own;

  return (
    <article className="py-2.5 first:pt-0 last:pb-0" data-comment-id={comment.id}>
      <header className="flex items-center justify-between gap-2">
        <CommentAuthorName author={comment.author} />
        <span className="shrink-0 text-[0.6875rem] text-muted">
          <CommentTime value={comment.created} edited={wasEdited(comment)} />
        </span>
      </header>
      <div className="mt-1.5">
        {editing ? (
          <CommentEditor
            initial={comment.comment}
            placeholder="Edit your comment"
            saveLabel="Save"
            isNew={false}
          />
        ) : (
          <CommentBody comment={comment} />
        )}
      </div>
      {editing ? null : (
        <footer className="-ml-1.5 mt-1.5 flex flex-wrap items-center gap-x-1 gap-y-1">
          <Votes comment={comment} canVote={canVote} />
          <span className="ml-auto flex flex-wrap items-center">
            {own && !comment.private ? (
              <Action
                label="Edit"
                onClick={() =>
                  openEditor({
                    kind: 'edit',
                    selectionId: comment.selection_id,
                    commentId: comment.id,
                  })
                }
              />
            ) : null}
            {own || isOwner ? (
              <Action label="Delete" tone="danger" onClick={() => askDelete(comment)} />
            ) : null}
            {currentUserId !== null && !own ? (
              <Action
                label="Report"
                onClick={() =>
                  askReport({
                    model: 'comment',
                    id: comment.id,
                    label: `A comment by ${comment.author.display_name}`,
                  })
                }
              />
            ) : null}
          </span>
        </footer>
      )}
      {editing ? null : <CommentExtras comment={comment} />}
    </article>
  );
}
