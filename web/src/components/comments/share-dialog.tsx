import { useEffect, useRef, useState } from 'react';
import { MESSAGES } from '@margins/common';
import { Dialog } from '../dialog.tsx';
import { useFlash } from '../feedback/feedback.tsx';
import { copyText } from '../../lib/copy-text.ts';

/** How long the button says "Copied!". */
const COPIED_MS = 2_000;

/** The reader's share modal: the reading address and a "Copy link" button ("Copied!"). */
export function ShareDialog({
  url,
  title,
  onClose,
}: {
  url: string;
  title: string;
  onClose: () => void;
}) {
  const flash = useFlash();
  const inputRef = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const handleCopy = async () => {
    if (await copyText(url)) {
      setCopied(true);
      return;
    }
    inputRef.current?.select();
    flash('Copying was refused by the browser: the link is selected, copy it by hand.');
  };

  return (
    <Dialog
      title="Share this manuscript"
      description={title}
      onClose={onClose}
      size="max-w-lg"
      testId="share-dialog"
    >
      <p className="font-serif text-sm leading-relaxed text-muted">
        Anyone who may read this manuscript can open it with this link.
      </p>
      <div className="mt-4 flex flex-col gap-2 sm:flex-row">
        <label htmlFor="share-url" className="sr-only">
          Link to the manuscript
        </label>
        <input
          ref={inputRef}
          id="share-url"
          className="field-input min-w-0 flex-1 font-mono text-sm"
          value={url}
          readOnly
          onFocus={(event) => event.target.select()}
        />
        <button
          type="button"
          className="btn btn-primary shrink-0"
          onClick={() => void handleCopy()}
          aria-live="polite"
        >
          {copied ? MESSAGES.copied : 'Copy link'}
        </button>
      </div>
    </Dialog>
  );
}
