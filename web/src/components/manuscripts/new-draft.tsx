import { useId, useRef, useState } from 'react';
import type { Manuscript, UploadResponse } from '@margins/common';
import { FieldErrorList } from '../form/fields.tsx';
import { UPLOAD_ACCEPT, refusalFor } from './upload-form.tsx';
import { announcementFor, UploadProgress } from './upload-progress.tsx';
import { useUploadFlow } from './use-upload-flow.ts';

/**
 * "Upload a new draft": replaces the text of a manuscript with a new file
 * (POST /manuscript/:id/document), with the same progress and polling as a first upload.
 * Earlier drafts stay on the server.
 */
export function NewDraftControl({
  manuscript,
  onUploaded,
  onDone,
  doneText = 'The new draft is ready.',
}: {
  manuscript: Manuscript;
  onUploaded?: (response: UploadResponse) => void;
  onDone: (manuscript: Manuscript) => void;
  doneText?: string;
}) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const { state, start, proceed, busy } = useUploadFlow({
    url: `/manuscript/${manuscript.id}/document`,
    onUploaded,
    onDone,
  });

  const handleChoose = (files: ArrayLike<File>) => {
    const refusal = refusalFor(files);
    setProblem(refusal);
    const file = files[0];
    if (!refusal && file) void start(file);
    if (inputRef.current) inputRef.current.value = '';
  };

  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-3" data-new-draft>
      <div>
        <h3 id={`${id}-heading`} className="font-serif text-lg font-semibold">
          A new draft
        </h3>
        <p className="mt-1 text-sm text-muted">
          Revised the text? Upload the new file; readers see it once it is inked. Earlier drafts are
          kept.
        </p>
      </div>
      <label
        className={`btn btn-secondary has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-accent ${busy || manuscript.inking ? 'pointer-events-none opacity-60' : ''}`}
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
          <path d="M9.25 14V5.8L6.3 8.7 5.2 7.6 10 2.8l4.8 4.8-1.1 1.1-2.95-2.9V14h-1.5ZM4 15.5h12V17H4v-1.5Z" />
        </svg>
        Upload a new draft
        <input
          ref={inputRef}
          type="file"
          accept={UPLOAD_ACCEPT}
          disabled={busy || manuscript.inking}
          onChange={(event) => handleChoose(event.currentTarget.files ?? [])}
          className="sr-only"
          data-testid="draft-file"
        />
      </label>
      {problem ? (
        <div role="alert">
          <FieldErrorList id={`${id}-problem`} messages={[problem]} />
        </div>
      ) : null}
      <UploadProgress state={state} doneText={doneText} onProceed={proceed} />
      <p role="status" aria-live="polite" className="sr-only">
        {announcementFor(state, doneText)}
      </p>
    </section>
  );
}
