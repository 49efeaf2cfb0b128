// One question of the survey editor: its text, answer type, comment switch and choices.
import { useId, useState } from 'react';
import { QUESTION_TYPES } from '@margins/common';
import {
  addYesNo,
  emptyChoice,
  QUESTION_TYPE_LABELS,
  takesChoices,
  type DraftChoice,
  type DraftQuestion,
} from './survey-draft.ts';

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

/** The card that edits one question of a survey, with its choices and right answers. */
export function QuestionCard({
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
