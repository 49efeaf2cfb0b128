import { useId, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { QUESTION_TYPES, type Manuscript, type Survey, type SurveyType } from '@margins/common';
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
  addYesNo,
  draftFromSurvey,
  draftProblems,
  emptyChoice,
  emptyDraft,
  emptyQuestion,
  move,
  QUESTION_TYPE_LABELS,
  surveyBodyOf,
  takesChoices,
  type DraftChoice,
  type DraftQuestion,
  type SurveyDraft,
} from './survey-draft.ts';

const INTRO: Record<SurveyType, string> = {
  questionaire:
    'Readers answer these questions before they can read. Mark the right answers to score them; you approve the rest on the answers page.',
  feedback:
    'Readers who got in can answer these questions whenever they like — and are offered the survey when they reach the end.',
};

function IconButton({
  label,
  onClick,
  disabled,
  path,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  path: string;
}) {
  return (
    <button
      type="button"
      className="inline-flex size-9 cursor-pointer items-center justify-center rounded-full text-muted transition-colors hover:bg-sunken hover:text-ink disabled:cursor-not-allowed disabled:opacity-40 disabled:hover:bg-transparent"
      onClick={onClick}
      disabled={disabled}
      aria-label={label}
      title={label}
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
        <path d={path} />
      </svg>
    </button>
  );
}

const UP = 'M10 4.5 4.5 10l1.1 1.1 3.6-3.6V16h1.6V7.5l3.6 3.6 1.1-1.1L10 4.5Z';
const DOWN = 'M10 15.5 15.5 10l-1.1-1.1-3.6 3.6V4H9.2v8.5L5.6 8.9 4.5 10l5.5 5.5Z';
const REMOVE =
  'M7.5 3h5l.6 1.2H16v1.6H4V4.2h2.9L7.5 3ZM5.2 7h9.6l-.7 9.1a1.4 1.4 0 0 1-1.4 1.3H7.3a1.4 1.4 0 0 1-1.4-1.3L5.2 7Z';

function ChoiceRow({
  questionId,
  choice,
  index,
  questionType,
  scored,
  onChange,
  onRemove,
}: {
  questionId: string;
  choice: DraftChoice;
  index: number;
  questionType: DraftQuestion['questionType'];
  scored: boolean;
  onChange: (choice: DraftChoice) => void;
  onRemove: () => void;
}) {
  const inputId = `${questionId}-${choice.choiceId}`;
  return (
    <li className="flex items-center gap-2" data-choice>
      {scored ? (
        <label
          className="flex shrink-0 cursor-pointer items-center gap-1.5 text-xs font-medium text-muted"
          title="The right answer"
        >
          <input
            type={questionType === 'multipleChoice' ? 'radio' : 'checkbox'}
            name={`${questionId}-correct`}
            className="size-4 accent-[var(--success)]"
            checked={choice.correctChoice}
            onChange={(event) => onChange({ ...choice, correctChoice: event.target.checked })}
            onClick={() => {
              // A radio that is on turns off again when clicked (no right answer at all).
              if (questionType === 'multipleChoice' && choice.correctChoice) {
                onChange({ ...choice, correctChoice: false });
              }
            }}
            aria-label={`Choice ${index + 1} is a right answer`}
          />
          <span className="hidden sm:inline">Right</span>
        </label>
      ) : null}
      <label htmlFor={inputId} className="sr-only">
        Choice {index + 1}
      </label>
      <input
        id={inputId}
        className="field-input min-w-0 flex-1"
        value={choice.choice}
        maxLength={500}
        placeholder={`Choice ${index + 1}`}
        onChange={(event) => onChange({ ...choice, choice: event.target.value })}
      />
      <IconButton label={`Remove choice ${index + 1}`} onClick={onRemove} path={REMOVE} />
    </li>
  );
}

function QuestionCard({
  question,
  index,
  count,
  scored,
  problem,
  onChange,
  onMove,
  onRemove,
}: {
  question: DraftQuestion;
  index: number;
  count: number;
  scored: boolean;
  problem?: string;
  onChange: (question: DraftQuestion) => void;
  onMove: (step: -1 | 1) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const [yesNoMessage, setYesNoMessage] = useState<string | null>(null);
  const number = index + 1;

  const setChoice = (choiceIndex: number, choice: DraftChoice) => {
    let choices = question.choices.map((current, position) =>
      position === choiceIndex ? choice : current,
    );
    // One right answer for a multiple-choice question.
    if (question.questionType === 'multipleChoice' && choice.correctChoice) {
      choices = choices.map((current, position) =>
        position === choiceIndex ? current : { ...current, correctChoice: false },
      );
    }
    onChange({ ...question, choices });
  };

  const handleYesNo = () => {
    const result = addYesNo(question);
    setYesNoMessage(result.refused);
    if (!result.refused) onChange(result.question);
  };

  const handleType = (questionType: DraftQuestion['questionType']) => {
    let choices = question.choices;
    if (questionType === 'multipleChoice') {
      // Going from several right answers to one: keep the first.
      let seen = false;
      choices = choices.map((choice) => {
        if (!choice.correctChoice) return choice;
        if (seen) return { ...choice, correctChoice: false };
        seen = true;
        return choice;
      });
    }
    if (takesChoices(questionType) && choices.length === 0) {
      choices = [emptyChoice(), emptyChoice()];
    }
    onChange({ ...question, questionType, choices });
  };

  return (
    <li
      className="rounded-xl border border-line bg-page/60 p-4 sm:p-5"
      data-question={question.id}
      aria-labelledby={`${id}-heading`}
    >
      <div className="mb-3 flex items-center justify-between gap-2">
        <h4 id={`${id}-heading`} className="font-sans text-sm font-semibold text-muted">
          Question {number}
        </h4>
        <div className="flex items-center">
          <IconButton
            label={`Move question ${number} up`}
            onClick={() => onMove(-1)}
            disabled={index === 0}
            path={UP}
          />
          <IconButton
            label={`Move question ${number} down`}
            onClick={() => onMove(1)}
            disabled={index === count - 1}
            path={DOWN}
          />
          <IconButton label={`Remove question ${number}`} onClick={onRemove} path={REMOVE} />
        </div>
      </div>

      <label htmlFor={`${id}-text`} className="field-label">
        Question
      </label>
      <textarea
        id={`${id}-text`}
        className="field-input min-h-16 leading-relaxed"
        rows={2}
        maxLength={2000}
        value={question.question}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        onChange={(event) => onChange({ ...question, question: event.target.value })}
      />

      <div className="mt-3 grid gap-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-end">
        <div>
          <label htmlFor={`${id}-type`} className="field-label">
            Answer type
          </label>
          <select
            id={`${id}-type`}
            className="field-input"
            value={question.questionType}
            onChange={(event) => handleType(event.target.value as DraftQuestion['questionType'])}
          >
            {QUESTION_TYPES.map((type) => (
              <option key={type} value={type}>
                {QUESTION_TYPE_LABELS[type]}
              </option>
            ))}
          </select>
        </div>
        <label className="flex min-h-10 cursor-pointer items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="size-4 accent-[var(--accent)]"
            checked={question.allowComments}
            onChange={(event) => onChange({ ...question, allowComments: event.target.checked })}
          />
          Readers may add a comment
        </label>
      </div>

      {takesChoices(question.questionType) ? (
        <fieldset className="mt-4">
          <legend className="field-label">Choices</legend>
          {scored ? (
            <p className="-mt-1 mb-2 text-xs text-muted">
              {question.questionType === 'multipleChoice'
                ? 'Mark the right answer to score it (or none).'
                : 'Tick every right answer: readers must pick exactly those.'}
            </p>
          ) : null}
          {question.choices.length ? (
            <ul className="space-y-2">
              {question.choices.map((choice, choiceIndex) => (
                <ChoiceRow
                  key={choice.choiceId}
                  questionId={question.id}
                  choice={choice}
                  index={choiceIndex}
                  questionType={question.questionType}
                  scored={scored}
                  onChange={(next) => setChoice(choiceIndex, next)}
                  onRemove={() => {
                    setYesNoMessage(null);
                    onChange({
                      ...question,
                      choices: question.choices.filter((_, position) => position !== choiceIndex),
                    });
                  }}
                />
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted">No choices yet.</p>
          )}
          <div className="mt-3 flex flex-wrap gap-2">
            <button
              type="button"
              className="btn btn-secondary min-h-9 px-4"
              onClick={() => {
                setYesNoMessage(null);
                onChange({ ...question, choices: [...question.choices, emptyChoice()] });
              }}
            >
              Add choice
            </button>
            <button type="button" className="btn btn-ghost min-h-9 px-4" onClick={handleYesNo}>
              Yes/No
            </button>
          </div>
          {yesNoMessage ? (
            <p role="alert" className="mt-2 text-sm text-danger" data-yes-no-refused>
              {yesNoMessage}
            </p>
          ) : null}
        </fieldset>
      ) : null}

      {problem ? (
        <p id={`${id}-problem`} role="alert" className="field-errors">
          {problem}
        </p>
      ) : null}
    </li>
  );
}

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
          {manuscript.approvals_required && draft.autoApprove ? (
            <p className="mt-3 text-xs text-muted">
              This manuscript requires your approval for every reader (manuscript Info), so nobody
              is approved automatically until you turn that off.
            </p>
          ) : null}
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
