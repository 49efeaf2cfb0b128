import { useState, type FormEvent } from 'react';
import {
  INSIGHTS_MESSAGES,
  STOP_REASON_LABELS,
  STOP_REASONS,
  STOP_TEXT_MAX,
  type StopReason,
} from '@margins/common';
import { stopReading } from '../../api/insights.ts';
import { submitFailure } from '../../api/client.ts';
import { Dialog } from '../dialog.tsx';
import { FormAlert, TextAreaField } from '../form/fields.tsx';
import { chapterInView } from './use-reading-recorder.ts';

/**
 * "I'm stopping here": the reader tells the author they stopped, with a reason from a short
 * list and optional words of their own. The author sees it against the chapter; reminders stop.
 */
export function StopReadingButton({
  manuscriptId,
  authorName,
}: {
  manuscriptId: number;
  authorName: string;
}) {
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState(false);
  return (
    <>
      <button
        type="button"
        className="btn btn-ghost"
        onClick={() => setOpen(true)}
        data-testid="stop-reading"
      >
        {done ? 'Stopped ✓' : 'I’m stopping here'}
      </button>
      {open ? (
        <Dialog
          title="I’m stopping here"
          description={`Tell ${authorName} why, if you like: it helps them more than anything.`}
          onClose={() => setOpen(false)}
          size="max-w-lg"
          testId="stop-reading-dialog"
        >
          <StopForm
            manuscriptId={manuscriptId}
            chapterId={chapterInView()}
            done={done}
            onDone={() => setDone(true)}
          />
        </Dialog>
      ) : null}
    </>
  );
}

function StopForm({
  manuscriptId,
  chapterId,
  done,
  onDone,
}: {
  manuscriptId: number;
  chapterId: string | undefined;
  done: boolean;
  onDone: () => void;
}) {
  const [reason, setReason] = useState<StopReason | null>(null);
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (done) return <FormAlert tone="success">{INSIGHTS_MESSAGES.stopped}</FormAlert>;

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!reason) {
      setErrors({ reason: ['Choose a reason from the list.'] });
      return;
    }
    setBusy(true);
    try {
      await stopReading(manuscriptId, {
        reason,
        text,
        ...(chapterId ? { chapter_id: chapterId } : {}),
      });
      onDone();
    } catch (error) {
      const failure = submitFailure(error);
      setErrors(failure.errors);
      setProblem(failure.problem);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="space-y-5" onSubmit={handleSubmit} noValidate>
      {problem ? <FormAlert>{problem}</FormAlert> : null}
      <fieldset aria-describedby={errors.reason ? 'stop-reason-error' : undefined}>
        <legend className="mb-2 text-sm font-semibold">Why are you stopping?</legend>
        <div className="space-y-2">
          {STOP_REASONS.map((candidate) => (
            <label key={candidate} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="reason"
                value={candidate}
                checked={reason === candidate}
                onChange={() => setReason(candidate)}
              />
              {STOP_REASON_LABELS[candidate]}
            </label>
          ))}
        </div>
        {errors.reason ? (
          <p id="stop-reason-error" className="mt-2 text-sm text-danger">
            {errors.reason.join(' ')}
          </p>
        ) : null}
      </fieldset>
      <TextAreaField
        label="Anything else? (optional)"
        name="text"
        value={text}
        maxLength={STOP_TEXT_MAX}
        errors={errors.text}
        onChange={(event) => setText(event.target.value)}
      />
      <button type="submit" className="btn btn-primary" disabled={busy}>
        Tell the author
      </button>
    </form>
  );
}
