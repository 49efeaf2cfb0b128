import { useId, useRef, useState, type DragEvent, type FormEvent } from 'react';
import {
  MANUSCRIPT_UPLOAD_MAX_BYTES,
  MESSAGES,
  type Category,
  type Manuscript,
  type UploadResponse,
} from '@margins/common';
import { FieldErrorList, TextAreaField, TextField } from '../form/fields.tsx';
import { UpgradeLink } from '../payments/upgrade-link.tsx';
import { CategoryOptions } from './category-options.tsx';
import { announcementFor, UploadProgress } from './upload-progress.tsx';
import { useUploadFlow } from './use-upload-flow.ts';

/** The file picker's filter: the six formats by extension (the server also checks content). */
export const UPLOAD_ACCEPT = '.docx,.rtf,.odt,.txt,.html,.htm,.md,.markdown';

const FORMAT_NAMES = ['DOCX', 'RTF', 'ODT', 'TXT', 'HTML', 'Markdown'];

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Why a dropped or picked set of files cannot be sent, or null when it is one fine file. */
export function refusalFor(files: ArrayLike<File>): string | null {
  if (files.length > 1) return MESSAGES.oneFileAtATime;
  const file = files[0];
  if (!file) return 'Choose a file to upload.';
  if (file.size === 0) return 'That file is empty. Check that you chose the right one.';
  if (file.size > MANUSCRIPT_UPLOAD_MAX_BYTES) {
    const megabytes = MANUSCRIPT_UPLOAD_MAX_BYTES / 1024 / 1024;
    return `That file is larger than ${megabytes} MB. Remove large images or split the manuscript, and upload again.`;
  }
  return null;
}

/**
 * Upload a manuscript: drop one file (or pick it), optionally give a title, summary and
 * category, and send it with a progress bar; then the conversion is followed until the
 * manuscript can be read. Used by the upload page and the dashboard's new-manuscript modal.
 */
export function UploadForm({
  onUploaded,
  onDone,
  doneText,
}: {
  /** The manuscript exists (inking) on the server. */
  onUploaded?: (response: UploadResponse) => void;
  /** The manuscript is converted and can be read. */
  onDone: (manuscript: Manuscript) => void;
  doneText?: string;
}) {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [category, setCategory] = useState<Category>('fiction');
  const inputRef = useRef<HTMLInputElement>(null);
  const { state, start, reset, proceed, busy } = useUploadFlow({
    url: '/manuscript/document',
    onUploaded,
    onDone,
  });
  const finalText = doneText ?? 'Ready! Opening your manuscript…';
  const locked = busy || state.phase === 'done';

  const choose = (files: ArrayLike<File>) => {
    const refusal = refusalFor(files);
    setProblem(refusal);
    if (refusal) return;
    setFile(files[0] ?? null);
    if (state.phase === 'failed') reset();
  };

  const handleDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    if (locked) return;
    choose(event.dataTransfer.files);
  };

  const handleDragOver = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    if (locked) return;
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (locked) return;
    if (!file) {
      setProblem('Choose a file to upload.');
      inputRef.current?.focus();
      return;
    }
    const data = new FormData(event.currentTarget);
    const fields: Record<string, string> = { category };
    for (const name of ['title', 'summary']) {
      const value = String(data.get(name) ?? '').trim();
      if (value) fields[name] = value;
    }
    setProblem(null);
    void start(file, fields);
  };

  const handleStartOver = () => {
    reset();
    setFile(null);
    if (inputRef.current) inputRef.current.value = '';
    inputRef.current?.focus();
  };

  const zoneId = `${id}-file`;
  const problemId = `${id}-problem`;

  return (
    <form
      noValidate
      onSubmit={handleSubmit}
      aria-label="Upload a manuscript"
      className="space-y-6"
      data-upload-form
    >
      <div>
        <label
          htmlFor={zoneId}
          onDragEnter={handleDragOver}
          onDragOver={handleDragOver}
          onDragLeave={() => setDragging(false)}
          onDrop={handleDrop}
          data-dropzone
          data-dragging={dragging || undefined}
          className={`group relative flex cursor-pointer flex-col items-center justify-center gap-3 rounded-2xl border-2 border-dashed px-6 py-9 text-center transition-colors focus-within:border-accent focus-within:bg-accent-soft/40 ${
            dragging
              ? 'border-accent bg-accent-soft/60'
              : 'border-line bg-page/60 hover:border-accent/60'
          } ${locked ? 'pointer-events-none opacity-60' : ''}`}
        >
          <span
            aria-hidden="true"
            className="flex size-12 items-center justify-center rounded-full bg-surface text-accent shadow-card"
          >
            <svg viewBox="0 0 24 24" className="size-6 fill-none stroke-current" strokeWidth="1.6">
              <path d="M7 3.5h7l4.5 4.5v12.5H7z" strokeLinejoin="round" />
              <path d="M14 3.5V8h4.5" strokeLinejoin="round" />
              <path d="M12.75 17.5v-6m-2.5 2.5 2.5-2.5 2.5 2.5" strokeLinecap="round" />
            </svg>
          </span>
          {file ? (
            <span className="space-y-1">
              <span className="block font-serif text-lg font-semibold break-all text-ink">
                {file.name}
              </span>
              <span className="block text-sm text-muted">
                {formatSize(file.size)} ·{' '}
                <span className="text-accent underline">choose another</span>
              </span>
            </span>
          ) : (
            <span className="space-y-1">
              <span className="block font-serif text-lg font-semibold text-ink">
                Drop your manuscript here
              </span>
              <span className="block text-sm text-muted">
                or <span className="text-accent underline">choose a file</span> — one at a time
              </span>
            </span>
          )}
          <span className="text-xs text-muted">
            {FORMAT_NAMES.join(' · ')} · up to {MANUSCRIPT_UPLOAD_MAX_BYTES / 1024 / 1024} MB
          </span>
          <input
            ref={inputRef}
            id={zoneId}
            type="file"
            name="docxfile"
            accept={UPLOAD_ACCEPT}
            disabled={locked}
            aria-describedby={problem ? problemId : undefined}
            aria-invalid={problem ? true : undefined}
            onChange={(event) => choose(event.currentTarget.files ?? [])}
            className="sr-only"
            data-testid="manuscript-file"
          />
        </label>
        {problem ? (
          <div role="alert">
            <FieldErrorList id={problemId} messages={[problem]} />
            <UpgradeLink message={problem} />
          </div>
        ) : null}
      </div>

      <UploadProgress state={state} doneText={finalText} onProceed={proceed} />
      <p role="status" aria-live="polite" className="sr-only" data-upload-announcer>
        {announcementFor(state, finalText)}
      </p>

      <fieldset disabled={locked} className="space-y-5">
        <legend className="mb-3 text-sm text-muted">
          All optional — without a title we use the document’s own.
        </legend>
        <TextField label="Title" name="title" maxLength={200} autoComplete="off" />
        <TextAreaField
          label="Summary"
          name="summary"
          rows={3}
          maxLength={2000}
          hint="A few lines for the card your readers see."
        />
        <div role="radiogroup" aria-labelledby={`${id}-category`}>
          <p id={`${id}-category`} className="field-label">
            Category
          </p>
          <CategoryOptions value={category} onChange={setCategory} />
        </div>
      </fieldset>

      <div className="flex flex-col-reverse gap-3 border-t border-line pt-5 sm:flex-row sm:items-center sm:justify-end">
        {state.phase === 'failed' ? (
          <button type="button" className="btn btn-secondary" onClick={handleStartOver}>
            Choose another file
          </button>
        ) : null}
        <button type="submit" className="btn btn-primary" disabled={locked}>
          {busy ? 'Working…' : state.phase === 'failed' ? 'Try again' : 'Upload manuscript'}
        </button>
      </div>
    </form>
  );
}
