import { useState } from 'react';
import { THREAD_MESSAGES, type Comment, type Reply } from '@margins/common';
import { linkify } from '../../lib/linkify.tsx';
import { CommentAuthorName } from './comment-author.tsx';
import { CommentTime } from './comment-time.tsx';
import { useComments } from './comments-context.tsx';
import { Reactions } from './reactions.tsx';
import { useThreads } from './threads-context.tsx';

/** A small text form for a reply (new or edited). */
function ReplyForm({
  initial = '',
  label,
  onSave,
  onCancel,
}: {
  initial?: string;
  label: string;
  onSave: (text: string) => Promise<boolean>;
  onCancel: () => void;
}) {
  const [text, setText] = useState(initial);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="mt-2 flex flex-col gap-1.5"
      onClick={(event) => event.stopPropagation()}
      onSubmit={(event) => {
        event.preventDefault();
        if (!text.trim()) return;
        setBusy(true);
        void onSave(text).then((saved) => {
          setBusy(false);
          if (saved) onCancel();
        });
      }}
    >
      <textarea
        className="field min-h-16 text-sm"
        aria-label={label}
        placeholder={label}
        value={text}
        onChange={(event) => setText(event.target.value)}
        data-reply-input
      />
      <span className="flex gap-2">
        <button
          type="submit"
          className="btn btn-primary min-h-7 px-3 text-xs"
          disabled={busy || !text.trim()}
        >
          {initial ? 'Save' : 'Reply'}
        </button>
        <button type="button" className="btn btn-ghost min-h-7 px-3 text-xs" onClick={onCancel}>
          Cancel
        </button>
      </span>
    </form>
  );
}

/** One reply: author, time, text, reactions; edit/delete own, the owner deletes any. */
function ReplyItem({ reply }: { reply: Reply }) {
  const threads = useThreads()!;
  const { currentUserId, isOwner } = useComments();
  const [editing, setEditing] = useState(false);
  const own = currentUserId !== null && reply.author_id === currentUserId;
  return (
    // A block, not a list item, in a list that resets no counter: in Chromium, an element that
    // touches a counter (a list item, a list, the browser's own <summary>) mounted or unmounted
    // anywhere — the margin mounts cards as the reader scrolls — counts the page's lists again,
    // and a book's footnotes then lay the whole page out again.
    <li className="block border-l-2 border-line py-1.5 pl-2.5" data-reply-id={reply.id}>
      <header className="flex items-center justify-between gap-2">
        <CommentAuthorName author={reply.author} />
        <span className="shrink-0 text-[0.6875rem] text-muted">
          <CommentTime value={reply.created} edited={reply.updated !== reply.created} />
        </span>
      </header>
      {editing ? (
        <ReplyForm
          initial={reply.comment}
          label="Edit your reply"
          onSave={(text) => threads.editReply(reply.id, text)}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <p
          className="mt-1 font-serif text-sm leading-relaxed break-words whitespace-pre-line text-ink"
          data-reply-text
        >
          {reply.moderation_flag ? `(${THREAD_MESSAGES.hiddenByModerators}) ` : ''}
          {linkify(reply.comment)}
        </p>
      )}
      <Reactions
        reactions={threads.reactionsOf(reply.id)}
        currentUserId={currentUserId}
        canReact={currentUserId !== null}
        onReact={(name, on) => threads.react(reply.id, name, on)}
      />
      {!editing && (own || isOwner) ? (
        <span className="flex gap-1 text-xs">
          {own ? (
            <button
              type="button"
              className="cursor-pointer px-1 text-muted hover:text-ink"
              onClick={() => setEditing(true)}
            >
              Edit
            </button>
          ) : null}
          <button
            type="button"
            className="cursor-pointer px-1 text-muted hover:text-danger"
            onClick={() => threads.deleteReply(reply.id)}
          >
            Delete
          </button>
        </span>
      ) : null}
    </li>
  );
}

/**
 * What a margin comment gains from issue 16: that the author resolved it (and, for the author,
 * resolve / reopen), its reactions, its replies one level deep, and a reply form.
 */
export function CommentExtras({ comment }: { comment: Comment }) {
  const threads = useThreads();
  const { currentUserId, isOwner } = useComments();
  const [replying, setReplying] = useState(false);
  if (!threads) return null;
  const replies = threads.repliesOf(comment.id);
  const resolved = Boolean(comment.resolved_at);
  const canAct = currentUserId !== null && !comment.private;
  return (
    <div className="mt-1" data-comment-extras>
      {resolved ? (
        <p className="text-xs font-semibold text-success" data-resolved>
          ✓ {THREAD_MESSAGES.resolvedBy}
        </p>
      ) : null}
      <Reactions
        reactions={threads.reactionsOf(comment.id)}
        currentUserId={currentUserId}
        canReact={canAct}
        onReact={(name, on) => threads.react(comment.id, name, on)}
      />
      {replies.length > 0 ? (
        <ul className="mt-1.5 flex flex-col gap-1 [counter-reset:none]" aria-label="Replies">
          {replies.map((reply) => (
            <ReplyItem key={reply.id} reply={reply} />
          ))}
        </ul>
      ) : null}
      {replying ? (
        <ReplyForm
          label="Reply to this comment"
          onSave={(text) => threads.reply(comment.id, text)}
          onCancel={() => setReplying(false)}
        />
      ) : (
        <span className="mt-1 flex flex-wrap gap-1 text-xs">
          {canAct ? (
            <button
              type="button"
              className="cursor-pointer rounded px-1.5 py-0.5 font-medium text-muted hover:bg-sunken hover:text-ink"
              data-reply-to={comment.id}
              onClick={(event) => {
                event.stopPropagation();
                setReplying(true);
              }}
            >
              Reply to comment
            </button>
          ) : null}
          {isOwner ? (
            <button
              type="button"
              className="cursor-pointer rounded px-1.5 py-0.5 font-medium text-muted hover:bg-sunken hover:text-ink"
              data-resolve={comment.id}
              onClick={(event) => {
                event.stopPropagation();
                threads.resolve(comment.id, !resolved);
              }}
            >
              {resolved ? 'Reopen' : 'Resolve'}
            </button>
          ) : null}
        </span>
      )}
    </div>
  );
}
