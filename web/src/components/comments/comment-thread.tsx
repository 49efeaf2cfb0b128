import type { CSSProperties, Ref } from 'react';
import { colourAt } from './painter.ts';
import { CommentCard } from './comment-card.tsx';
import { CommentEditor } from './comment-editor.tsx';
import { useComments, type Thread } from './comments-context.tsx';

/** The passage a thread is about, shortened for a card. */
function Quote({ text, lines = 3 }: { text: string; lines?: number }) {
  if (!text) {
    return <p className="text-xs text-muted italic">The passage is kept private.</p>;
  }
  return (
    <blockquote
      className="font-serif text-sm leading-snug text-muted italic"
      style={{
        display: '-webkit-box',
        WebkitLineClamp: lines,
        WebkitBoxOrient: 'vertical',
        overflow: 'hidden',
      }}
    >
      “{text}”
    </blockquote>
  );
}

/**
 * A highlight's card: its comments best first, the editor when one is open here, and a Reply
 * button. `showQuote` in the drawer and among the unplaced notes (not beside the passage).
 */
export function CommentThread({
  thread,
  showQuote = false,
  cardRef,
  className = '',
  style,
}: {
  thread: Thread;
  showQuote?: boolean;
  cardRef?: Ref<HTMLDivElement>;
  className?: string;
  style?: CSSProperties;
}) {
  const { activeId, activate, editor, openEditor, currentUserId, loginUrl, removeHighlight } =
    useComments();
  const active = activeId === thread.id;
  const editorHere = editor?.selectionId === thread.id ? editor : null;
  const writingNew = editorHere?.kind === 'new';
  const replying = editorHere?.kind === 'reply';
  const colour = colourAt(thread.colour);

  return (
    <div
      ref={cardRef}
      style={style}
      className={`hl-${colour} hl-edge rounded-xl border border-l-[3px] border-line bg-surface px-3.5 py-3 text-left shadow-card transition-[box-shadow,transform,translate] duration-200 ease-out ${
        active ? 'shadow-lift ring-1 ring-accent/25' : ''
      } ${className}`}
      onClick={() => {
        if (!active) activate(thread.id);
      }}
      data-thread={thread.id}
      data-active={active || undefined}
      aria-label={
        thread.quote
          ? `Comments on “${thread.quote.slice(0, 60)}”`
          : 'Comments on a private passage'
      }
      role="group"
    >
      {showQuote ? (
        <div className="mb-2.5">
          <Quote text={thread.quote} />
        </div>
      ) : null}
      {thread.comments.length > 0 ? (
        <div className="divide-y divide-line">
          {thread.comments.map((comment) => (
            <CommentCard key={comment.id} comment={comment} />
          ))}
        </div>
      ) : null}

      {writingNew ? <CommentEditor placeholder="Add a comment" saveLabel="Comment" isNew /> : null}
      {replying ? (
        <div className={thread.comments.length > 0 ? 'mt-2.5 border-t border-line pt-2.5' : ''}>
          <CommentEditor placeholder="Reply" saveLabel="Reply" isNew={false} />
        </div>
      ) : null}

      {!editorHere && !thread.draft ? (
        currentUserId === null ? (
          <p className="mt-2 text-xs text-muted">
            <a href={loginUrl}>Log in</a> to reply.
          </p>
        ) : thread.comments.length === 0 ? (
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <p className="w-full text-xs text-muted">Your highlight has no comment yet.</p>
            <button
              type="button"
              className="cursor-pointer text-xs font-semibold text-accent hover:text-accent-strong"
              onClick={() => openEditor({ kind: 'new', selectionId: thread.id })}
            >
              Write one
            </button>
            <button
              type="button"
              className="cursor-pointer text-xs font-medium text-muted hover:text-danger"
              onClick={() => removeHighlight(thread.id)}
            >
              Remove highlight
            </button>
          </div>
        ) : (
          <button
            type="button"
            className="mt-2 cursor-pointer rounded-full border border-line px-3 py-1 text-xs font-medium text-muted transition-colors hover:border-accent hover:text-ink"
            onClick={(event) => {
              event.stopPropagation();
              openEditor({ kind: 'reply', selectionId: thread.id });
            }}
          >
            Reply
          </button>
        )
      ) : null}
    </div>
  );
}
