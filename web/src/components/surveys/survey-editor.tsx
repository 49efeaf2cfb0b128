// The author's editor of a questionnaire or feedback survey: load, edit, save, remove.
import { useId, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Manuscript, Survey, SurveyType } from '@margins/common';
import {
  accessKeys,
  deleteSurvey,
  fetchSurvey,
  saveSurvey,
  surveyAnswersUrl,
  surveyTypeLabel,
} from '../../api/access.ts';
import { ApiError, errorMessage } from '../../api/client.ts';
import { ConfirmDialog } from '../dialog.tsx';
import { useToast } from '../feedback/feedback.tsx';
import { FormAlert } from '../form/fields.tsx';
import { InkSpinner } from '../manuscripts/upload-progress.tsx';
import {
  draftFromSurvey,
  draftProblems,
  emptyDraft,
  emptyQuestion,
  move,
  surveyBodyOf,
  type DraftQuestion,
  type SurveyDraft,
} from './survey-draft.ts';
import { QuestionCard } from './survey-question-editor.tsx';
import { approvalOutcome } from './approval-outcome.ts';

const INTRO: Record<SurveyType, string> = {
  questionaire:
    'Readers answer these questions before they can read. Mark the right answers to score them; you approve the rest on the answers page.',
  feedback:
    'Readers who got in can answer these questions whenever they like — and are offered the survey when they reach the end.',
};

/** The editing form of one survey, from its saved copy (or empty). */
function SurveyForm({
  manuscript,
  surveyType,
  saved,
  onSaved,
  onDeleted,
}: {
  manuscript: Manuscript;
  surveyType: SurveyType;
  saved: Survey | null;
  onSaved: (survey: Survey) => void;
  onDeleted: () => void;
}) {
  const id = useId();
  const toast = useToast();
  const [draft, setDraft] = useState<SurveyDraft>(() =>
    saved ? draftFromSurvey(saved) : emptyDraft(),
  );
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [serverErrors, setServerErrors] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const isQuestionnaire = surveyType === 'questionaire';
  const label = surveyTypeLabel(surveyType);

  const update = (next: SurveyDraft) => {
    setDraft(next);
    setServerErrors([]);
  };
  const setQuestion = (index: number, question: DraftQuestion) =>
    update({
      ...draft,
      questions: draft.questions.map((current, position) =>
        position === index ? question : current,
      ),
    });

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = draftProblems(draft, surveyType);
    setProblems(found);
    setServerErrors([]);
    if (Object.keys(found).length) return;
    setSaving(true);
    try {
      const survey = await saveSurvey(surveyBodyOf(manuscript.id, surveyType, draft));
      onSaved(survey);
      toast(`${label} saved!`);
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.errors).length) {
        setServerErrors(Object.values(error.errors).flat());
      } else {
        setServerErrors([errorMessage(error)]);
      }
    } finally {
      setSaving(false);
    }
  };

  const handleDelete = async () => {
    setDeleting(true);
    try {
      await deleteSurvey(manuscript.id, surveyType);
      toast(`${label} removed.`);
      setConfirmingDelete(false);
      onDeleted();
    } catch (error) {
      setServerErrors([errorMessage(error)]);
      setConfirmingDelete(false);
    } finally {
      setDeleting(false);
    }
  };

  const topProblems = [problems._, ...serverErrors].filter(Boolean) as string[];

  return (
    <form
      onSubmit={(event) => void handleSubmit(event)}
      noValidate
      aria-label={`${label} editor`}
      data-survey-editor={surveyType}
    >
      <p className="font-serif leading-relaxed text-muted">{INTRO[surveyType]}</p>

      {draft.questions.length ? (
        <ol className="mt-5 space-y-4">
          {draft.questions.map((question, index) => (
            <QuestionCard
              key={question.id}
              question={question}
              index={index}
              count={draft.questions.length}
              scored={isQuestionnaire}
              problem={problems[question.id]}
              onChange={(next) => setQuestion(index, next)}
              onMove={(step) => update({ ...draft, questions: move(draft.questions, index, step) })}
              onRemove={() =>
                update({
                  ...draft,
                  questions: draft.questions.filter((_, position) => position !== index),
                })
              }
            />
          ))}
        </ol>
      ) : (
        <p className="mt-5 rounded-xl border border-dashed border-line px-4 py-6 text-center font-serif text-muted">
          {saved ? 'No questions left.' : `No ${label.toLowerCase()} yet.`} Add a question to start.
        </p>
      )}

      <button
        type="button"
        className="btn btn-secondary mt-4"
        onClick={() => update({ ...draft, questions: [...draft.questions, emptyQuestion()] })}
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
          <path d="M9.25 4h1.5v5.25H16v1.5h-5.25V16h-1.5v-5.25H4v-1.5h5.25V4Z" />
        </svg>
        Add question
      </button>

      {isQuestionnaire ? (
        <fieldset className="mt-6 rounded-xl border border-line p-4 sm:p-5">
          <legend className="px-1 text-sm font-semibold">Approval</legend>
          <label className="flex cursor-pointer items-start gap-3">
            <input
              type="checkbox"
              name="autoApprove"
              className="mt-0.5 size-4 accent-[var(--accent)]"
              checked={draft.autoApprove}
              onChange={(event) => update({ ...draft, autoApprove: event.target.checked })}
            />
            <span>
              <span className="text-sm font-medium">Approve readers automatically</span>
              <span className="block text-xs text-muted">
                Readers who score at least the pass mark get in at once; the others wait for you.
              </span>
            </span>
          </label>
          <div className="mt-4 flex flex-wrap items-center gap-3">
            <label htmlFor={`${id}-percent`} className="text-sm font-medium">
              Pass mark
            </label>
            <span className="flex items-center gap-1.5">
              <input
                id={`${id}-percent`}
                name="autoApprovePercent"
                type="number"
                inputMode="numeric"
                min={0}
                max={100}
                step={1}
                className="field-input w-24"
                value={Number.isNaN(draft.autoApprovePercent) ? '' : draft.autoApprovePercent}
                aria-invalid={problems.autoApprovePercent ? true : undefined}
                onChange={(event) =>
                  update({ ...draft, autoApprovePercent: event.target.valueAsNumber })
                }
              />
              <span className="text-sm text-muted">%</span>
            </span>
          </div>
          {problems.autoApprovePercent ? (
            <p role="alert" className="field-errors">
              {problems.autoApprovePercent}
            </p>
          ) : null}
          <p className="mt-4 text-sm" role="status" data-approval-outcome>
            {approvalOutcome({
              approvalsRequired: manuscript.approvals_required,
              autoApprove: draft.autoApprove,
              autoApprovePercent: draft.autoApprovePercent,
            })}
          </p>
        </fieldset>
      ) : null}

      {topProblems.length ? (
        <div className="mt-5">
          <FormAlert>
            {topProblems.length === 1 ? (
              topProblems[0]
            ) : (
              <ul className="list-disc pl-5">
                {topProblems.map((message) => (
                  <li key={message}>{message}</li>
                ))}
              </ul>
            )}
          </FormAlert>
        </div>
      ) : Object.keys(problems).length ? (
        <div className="mt-5">
          <FormAlert>Some questions need a second look.</FormAlert>
        </div>
      ) : null}

      <div className="mt-6 flex flex-wrap items-center gap-3 border-t border-line pt-5">
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {saving ? 'Saving…' : `Save ${label.toLowerCase()}`}
        </button>
        {saved ? (
          <>
            <a href={surveyAnswersUrl(manuscript.id, surveyType)} className="text-sm font-medium">
              See the answers
            </a>
            <button
              type="button"
              className="btn btn-ghost ml-auto text-danger hover:text-danger"
              onClick={() => setConfirmingDelete(true)}
            >
              Remove {label.toLowerCase()}
            </button>
          </>
        ) : null}
      </div>

      {confirmingDelete ? (
        <ConfirmDialog
          title={`Remove the ${label.toLowerCase()}?`}
          confirmLabel={`Remove ${label.toLowerCase()}`}
          tone="danger"
          busy={deleting}
          onConfirm={() => void handleDelete()}
          onCancel={() => setConfirmingDelete(false)}
        >
          {isQuestionnaire
            ? 'Its questions and every answer go. Readers are no longer asked anything before reading.'
            : 'Its questions and every answer readers gave go.'}
        </ConfirmDialog>
      ) : null}
    </form>
  );
}

/**
 * The author's editor of a manuscript's questionnaire or feedback survey (dashboard edit
 * modal tabs, and the reader): questions, their type, order, comments and choices with the
 * right answers; auto-approval for the questionnaire. Loads the survey (404 = none: an empty
 * editor) and saves it with POST /manuscript/survey.
 */
export function SurveyEditor({
  manuscript,
  surveyType,
}: {
  manuscript: Manuscript;
  surveyType: SurveyType;
}) {
  const queryClient = useQueryClient();
  const key = accessKeys.survey(manuscript.id, surveyType);
  const query = useQuery({ queryKey: key, queryFn: () => fetchSurvey(manuscript.id, surveyType) });
  // A new form for each saved copy the server hands back (or its removal).
  const [generation, setGeneration] = useState(0);

  if (query.isPending) {
    return (
      <p className="flex items-center gap-2 py-6 text-sm text-muted" role="status">
        <InkSpinner />
        Loading the {surveyTypeLabel(surveyType).toLowerCase()}…
      </p>
    );
  }
  if (query.isError) {
    return (
      <FormAlert>
        {errorMessage(query.error)}{' '}
        <button type="button" className="underline" onClick={() => void query.refetch()}>
          Try again
        </button>
      </FormAlert>
    );
  }
  return (
    <SurveyForm
      key={generation}
      manuscript={manuscript}
      surveyType={surveyType}
      saved={query.data}
      onSaved={(survey) => queryClient.setQueryData(key, survey)}
      onDeleted={() => {
        queryClient.setQueryData(key, null);
        setGeneration((current) => current + 1);
      }}
    />
  );
}
