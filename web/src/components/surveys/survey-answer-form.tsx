import { useId, useState, type FormEvent } from 'react';
import type { Survey, SurveyAnswers, SurveySubmitResponse } from '@margins/common';
import { submitSurveyAnswers } from '../../api/access.ts';
import { ApiError, errorMessage } from '../../api/client.ts';
import { FormAlert } from '../form/fields.tsx';
import { orderedQuestions } from './survey-draft.ts';

/** What the reader has filled in: question id → choiceId, choiceIds or text; comments apart. */
interface AnswerState {
  values: Record<string, string | string[]>;
  comments: Record<string, string>;
}

/**
 * The answers payload (SPEC §3): question id → the choiceId (multipleChoice), a list of
 * choiceIds (multipleAnswer) or text (shortAnswer); `comments-{questionId}` → the comment.
 * Empty answers and comments are left out.
 */
export function answersPayload(survey: Survey, state: AnswerState): SurveyAnswers {
  const answers: SurveyAnswers = {};
  for (const [id, question] of orderedQuestions(survey.questions)) {
    const value = state.values[id];
    if (question.questionType === 'multipleAnswer') {
      const picked = Array.isArray(value) ? value : value ? [value] : [];
      if (picked.length) answers[id] = picked;
    } else if (typeof value === 'string' && value.trim()) {
      answers[id] = question.questionType === 'shortAnswer' ? value.trim() : value;
    }
    const comment = state.comments[id]?.trim();
    if (question.allowComments && comment) answers[`comments-${id}`] = comment;
  }
  return answers;
}

/** The questions left unanswered (by id). */
function unanswered(survey: Survey, answers: SurveyAnswers): string[] {
  return orderedQuestions(survey.questions)
    .map(([id]) => id)
    .filter((id) => answers[id] === undefined);
}

const CONFLICT = 409;

/**
 * A survey for a reader to answer: a radio group for multipleChoice, checkboxes for
 * multipleAnswer, a text box for shortAnswer, and a comment box where the question allows
 * one. Sends {user_id, answers} once; answers cannot be changed afterwards.
 */
export function SurveyAnswerForm({
  survey,
  manuscriptId,
  userId,
  requireAll,
  submitLabel,
  onSubmitted,
  onAlreadyAnswered,
}: {
  survey: Survey;
  manuscriptId: number;
  userId: number;
  /** Every question must be answered (the questionnaire); else at least one. */
  requireAll: boolean;
  submitLabel: string;
  onSubmitted: (result: SurveySubmitResponse) => void;
  /** 409: the answers were already in (another tab): what the page does then. */
  onAlreadyAnswered?: () => void;
}) {
  const formId = useId();
  const [state, setState] = useState<AnswerState>({ values: {}, comments: {} });
  const [missing, setMissing] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const questions = orderedQuestions(survey.questions);

  const setValue = (id: string, value: string | string[]) => {
    setState((current) => ({ ...current, values: { ...current.values, [id]: value } }));
    setMissing((current) => current.filter((candidate) => candidate !== id));
  };
  const toggle = (id: string, choiceId: string, on: boolean) => {
    const current = state.values[id];
    const picked = Array.isArray(current) ? current : [];
    setValue(id, on ? [...picked, choiceId] : picked.filter((value) => value !== choiceId));
  };

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const answers = answersPayload(survey, state);
    const left = unanswered(survey, answers);
    setProblem(null);
    setFieldErrors({});
    if (requireAll ? left.length > 0 : left.length === questions.length) {
      setMissing(requireAll ? left : []);
      setProblem(requireAll ? 'Answer every question first.' : 'Answer at least one question.');
      return;
    }
    setBusy(true);
    try {
      const result = await submitSurveyAnswers(manuscriptId, survey.surveyType, {
        user_id: userId,
        answers,
      });
      onSubmitted(result);
    } catch (error) {
      setBusy(false);
      if (error instanceof ApiError && error.status === CONFLICT && onAlreadyAnswered) {
        onAlreadyAnswered();
        return;
      }
      if (error instanceof ApiError && Object.keys(error.errors).length) {
        setFieldErrors(error.errors);
      }
      setProblem(errorMessage(error));
    }
  };

  return (
    <form
      onSubmit={(event) => void handleSubmit(event)}
      noValidate
      className="space-y-6 text-left"
      aria-label={survey.surveyType === 'questionaire' ? 'Questionnaire' : 'Feedback survey'}
      data-survey-form={survey.surveyType}
    >
      <ol className="space-y-6">
        {questions.map(([id, question], index) => {
          const groupId = `${formId}-${id}`;
          const isMissing = missing.includes(id);
          const errors = fieldErrors[id] ?? [];
          const value = state.values[id];
          const label = (
            <>
              <span className="mr-1.5 text-muted">{index + 1}.</span>
              {question.question}
            </>
          );
          return (
            <li key={id} data-question={id}>
              {question.questionType === 'shortAnswer' ? (
                <>
                  <label htmlFor={`${groupId}-text`} className="block font-serif text-lg">
                    {label}
                  </label>
                  <textarea
                    id={`${groupId}-text`}
                    name={id}
                    className="field-input mt-2 min-h-20 leading-relaxed"
                    maxLength={5000}
                    value={typeof value === 'string' ? value : ''}
                    aria-invalid={isMissing || errors.length ? true : undefined}
                    onChange={(event) => setValue(id, event.target.value)}
                  />
                </>
              ) : (
                <fieldset aria-invalid={isMissing || errors.length ? true : undefined}>
                  <legend className="font-serif text-lg">{label}</legend>
                  {question.questionType === 'multipleAnswer' ? (
                    <p className="mt-0.5 text-xs text-muted">Tick all that apply.</p>
                  ) : null}
                  <div className="mt-2 space-y-1.5">
                    {question.choices.map((choice) => {
                      const multiple = question.questionType === 'multipleAnswer';
                      const checked = multiple
                        ? Array.isArray(value) && value.includes(choice.choiceId)
                        : value === choice.choiceId;
                      return (
                        <label
                          key={choice.choiceId}
                          className={`flex cursor-pointer items-start gap-3 rounded-lg border px-3 py-2.5 transition-colors ${
                            checked
                              ? 'border-accent bg-accent-soft/60'
                              : 'border-line bg-surface hover:border-accent/60'
                          }`}
                        >
                          <input
                            type={multiple ? 'checkbox' : 'radio'}
                            name={id}
                            value={choice.choiceId}
                            className="mt-0.5 size-4 shrink-0 accent-[var(--accent)]"
                            checked={checked}
                            onChange={(event) =>
                              multiple
                                ? toggle(id, choice.choiceId, event.target.checked)
                                : setValue(id, choice.choiceId)
                            }
                          />
                          <span className="text-sm leading-snug">{choice.choice}</span>
                        </label>
                      );
                    })}
                  </div>
                </fieldset>
              )}
              {isMissing ? <p className="field-errors">Answer this question.</p> : null}
              {errors.map((message) => (
                <p key={message} className="field-errors">
                  {message}
                </p>
              ))}
              {question.allowComments ? (
                <div className="mt-3">
                  <label htmlFor={`${groupId}-comment`} className="field-label text-muted">
                    Comment <span className="font-normal">(optional)</span>
                  </label>
                  <textarea
                    id={`${groupId}-comment`}
                    name={`comments-${id}`}
                    className="field-input min-h-16 leading-relaxed"
                    rows={2}
                    maxLength={5000}
                    value={state.comments[id] ?? ''}
                    onChange={(event) =>
                      setState((current) => ({
                        ...current,
                        comments: { ...current.comments, [id]: event.target.value },
                      }))
                    }
                  />
                </div>
              ) : null}
            </li>
          );
        })}
      </ol>
      {problem ? <FormAlert>{problem}</FormAlert> : null}
      <div className="flex flex-wrap items-center gap-3 border-t border-line pt-5">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Sending…' : submitLabel}
        </button>
        <p className="text-xs text-muted">Answers are final once you send them.</p>
      </div>
    </form>
  );
}
