import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { COMMENT_MAX_LENGTH, MESSAGES } from '@margins/common';
import { useComments } from './comments-context.tsx';

/** Grows a textarea with its text (up to a limit, then it scrolls). */
function autosize(area: HTMLTextAreaElement | null) {
  if (!area) return;
  area.style.height = 'auto';
  area.style.height = `${Math.min(area.scrollHeight + 2, 320)}px`;
}

/**
 * The one open comment editor: a new comment, a reply or an edit. Ctrl/Cmd+Enter saves,
 * Escape cancels (a new, empty comment goes with its highlight). When someone tries to open
 * another editor it says "Save or close the open comment first." and takes the focus back.
 * Cancelling typed text asks first.
 */
export function CommentEditor({
  initial = '',
  placeholder,
  saveLabel,
  isNew,
}: {
  initial?: string;
  placeholder: string;
  saveLabel: string;
  /** A new comment on a new highlight: cancelling removes the highlight. */
  isNew: boolean;
}) {
  const { saveEditor, cancelEditor, editorWarning } = useComments();
  const id = useId();
  const [text, setText] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const areaRef = useRef<HTMLTextAreaElement>(null);
  const [warnedAt] = useState(editorWarning);
  const warned = editorWarning !== warnedAt;

  useLayoutEffect(() => autosize(areaRef.current), [text]);

  useEffect(() => {
    const area = areaRef.current;
    if (!area) return;
    area.focus({ preventScroll: true });
    area.setSelectionRange(area.value.length, area.value.length);
  }, []);

  // Another editor was asked for: bring this one back into view and focus.
  useEffect(() => {
    if (!warned) return;
    const area = areaRef.current;
    area?.scrollIntoView?.({ block: 'nearest' });
    area?.focus({ preventScroll: true });
  }, [warned, editorWarning]);

  const blank = text.trim() === '';
  const unchanged = text.trim() === initial.trim();

  const handleSave = async () => {
    if (blank || busy) return;
    setBusy(true);
    const saved = await saveEditor(text.trim());
    // Saved: this editor is gone. Refused: it stays with the text for another try.
    if (!saved) setBusy(false);
  };

  const handleCancel = () => {
    if (!blank && !unchanged && !confirmDiscard) {
      setConfirmDiscard(true);
      return;
    }
    cancelEditor();
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void handleSave();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      handleCancel();
    }
  };

  return (
    <div className="space-y-2" data-comment-editor>
      {warned ? (
        <p
          role="alert"
          className="rounded-md bg-danger-soft px-2.5 py-1.5 text-xs font-medium text-danger"
        >
          {MESSAGES.saveOrCloseComment}
        </p>
      ) : null}
      <label htmlFor={`${id}-text`} className="sr-only">
        {placeholder}
      </label>
      <textarea
        ref={areaRef}
        id={`${id}-text`}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setConfirmDiscard(false);
        }}
        onKeyDown={handleKeyDown}
        placeholder={placeholder}
        maxLength={COMMENT_MAX_LENGTH}
        rows={2}
        disabled={busy}
        className="field-input min-h-16 resize-none font-serif text-[0.9375rem] leading-relaxed sm:text-[0.9375rem]"
        data-testid="comment-text"
      />
      {confirmDiscard ? (
        <div className="flex flex-wrap items-center justify-end gap-2 text-sm" role="group">
          <span className="mr-auto text-muted">Discard this comment?</span>
          <button
            type="button"
            className="btn btn-ghost min-h-8 px-3"
            onClick={() => setConfirmDiscard(false)}
          >
            Keep writing
          </button>
          <button type="button" className="btn btn-danger min-h-8 px-3" onClick={cancelEditor}>
            Discard
          </button>
        </div>
      ) : (
        <div className="flex items-center justify-end gap-2">
          <button type="button" className="btn btn-ghost min-h-8 px-3" onClick={handleCancel}>
            Cancel
          </button>
          <button
            type="button"
            className="btn btn-primary min-h-8 px-4"
            onClick={() => void handleSave()}
            disabled={blank || busy || (!isNew && unchanged)}
            title="Save (Ctrl+Enter)"
          >
            {busy ? 'Saving…' : saveLabel}
          </button>
        </div>
      )}
    </div>
  );
}
