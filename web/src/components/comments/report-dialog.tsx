import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { COMMENT_MESSAGES, MESSAGES, REPORT_DESCRIPTION_MAX_LENGTH } from '@margins/common';
import { ApiError, errorMessage, type FieldErrors } from '../../api/client.ts';
import { fetchReportReasons, reportReasonsKey, submitReport } from '../../api/comments.ts';
import { Dialog } from '../dialog.tsx';
import { useToast } from '../feedback/feedback.tsx';
import { FieldErrorList, FormAlert, TextAreaField } from '../form/fields.tsx';
import type { ReportTarget } from './comments-context.tsx';

/** Field errors that belong under the reasons or the description; the rest go on top. */
const PLACED_FIELDS = new Set(['reason_id', 'reason_description']);

/**
 * The report modal (SPEC §3, §7): a reason from GET /report/reasons, an optional description,
 * POST /report/. Success: the toast "Your report has been submitted."; a 400: "Please check
 * your fields" and each field's errors under it.
 */
export function ReportDialog({ target, onClose }: { target: ReportTarget; onClose: () => void }) {
  const id = useId();
  const toast = useToast();
  const reasons = useQuery({ queryKey: reportReasonsKey, queryFn: fetchReportReasons });
  const [reasonId, setReasonId] = useState<number | null>(null);
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<FieldErrors | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const chosen = reasons.data?.find((reason) => reason.id === reasonId) ?? null;
  const otherErrors = errors
    ? Object.entries(errors).filter(([field]) => !PLACED_FIELDS.has(field))
    : [];

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setErrors(null);
    setFailure(null);
    try {
      await submitReport({
        model_name: target.model,
        report_element_id: target.id,
        // The server answers a missing reason with its own field error.
        reason_id: reasonId ?? 0,
        reason_description: description.trim(),
      });
      toast(MESSAGES.reportSubmitted);
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        setErrors(Object.keys(error.errors).length > 0 ? error.errors : { form: [error.error] });
      } else {
        setFailure(errorMessage(error));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={target.model === 'comment' ? 'Report this comment' : 'Report this manuscript'}
      description={target.label}
      onClose={onClose}
      size="max-w-lg"
      testId="report-dialog"
    >
      <form onSubmit={(event) => void handleSubmit(event)} className="space-y-5" noValidate>
        {errors ? (
          <FormAlert>
            <p>{MESSAGES.pleaseCheckFields}</p>
            {otherErrors.length > 0 ? (
              <ul className="mt-1.5 list-disc space-y-0.5 pl-5 font-normal" data-field-errors>
                {otherErrors.flatMap(([field, messages]) =>
                  messages.map((message) => <li key={`${field}-${message}`}>{message}</li>),
                )}
              </ul>
            ) : null}
          </FormAlert>
        ) : null}
        {failure ? <FormAlert>{failure}</FormAlert> : null}

        <fieldset aria-describedby={errors?.reason_id ? `${id}-reason-errors` : undefined}>
          <legend className="field-label">Why are you reporting it?</legend>
          {reasons.isPending ? (
            <p className="text-sm text-muted">Loading the reasons…</p>
          ) : reasons.isError ? (
            <p className="text-sm text-danger">{errorMessage(reasons.error)}</p>
          ) : (
            <div className="mt-1 space-y-1.5">
              {reasons.data.map((reason) => (
                <label
                  key={reason.id}
                  className="flex cursor-pointer items-start gap-3 rounded-lg border border-line px-3 py-2.5 transition-colors has-checked:border-accent has-checked:bg-accent-soft/50 hover:border-accent/60"
                >
                  <input
                    type="radio"
                    name="reason_id"
                    value={reason.id}
                    checked={reasonId === reason.id}
                    onChange={() => setReasonId(reason.id)}
                    className="mt-1 accent-accent"
                  />
                  <span>
                    <span className="block text-sm font-medium">{reason.reason}</span>
                    {reason.description ? (
                      <span className="block text-xs text-muted">{reason.description}</span>
                    ) : null}
                  </span>
                </label>
              ))}
            </div>
          )}
          <FieldErrorList id={`${id}-reason-errors`} messages={errors?.reason_id} />
        </fieldset>

        <TextAreaField
          label={chosen?.description_required ? 'Tell us more' : 'Tell us more (optional)'}
          name="reason_description"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          maxLength={REPORT_DESCRIPTION_MAX_LENGTH}
          hint={chosen?.description_required ? COMMENT_MESSAGES.describeReason : undefined}
          errors={errors?.reason_description}
        />

        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Sending…' : 'Send report'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
