import type { Survey, SurveyAnswer } from '@margins/common';
import { orderedQuestions } from './survey-draft.ts';

function Mark({ kind }: { kind: 'picked-right' | 'picked-wrong' | 'picked' | 'missed' | 'none' }) {
  const styles = {
    'picked-right': 'border-success bg-success text-surface',
    'picked-wrong': 'border-danger bg-danger text-surface',
    picked: 'border-accent bg-accent text-on-accent',
    missed: 'border-success text-success',
    none: 'border-line text-transparent',
  } as const;
  const path =
    kind === 'picked-wrong'
      ? 'M6.2 5.1 10 8.9l3.8-3.8 1.1 1.1-3.8 3.8 3.8 3.8-1.1 1.1-3.8-3.8-3.8 3.8-1.1-1.1 3.8-3.8-3.8-3.8 1.1-1.1Z'
      : 'M8 13.2 4.4 9.6l-1.2 1.2L8 15.6l9-9-1.2-1.2L8 13.2Z';
  return (
    <span
      aria-hidden="true"
      className={`mt-0.5 inline-flex size-5 shrink-0 items-center justify-center rounded-full border ${styles[kind]}`}
    >
      <svg viewBox="0 0 20 20" className="size-3.5 fill-current">
        <path d={path} />
      </svg>
    </span>
  );
}

/**
 * A reader's answers to every question of the survey, as the author sees them: the choices
 * with the reader's picks and the right answers marked, the text of short answers, and the
 * reader's comments.
 */
export function SurveyAnswerView({ survey, answer }: { survey: Survey; answer: SurveyAnswer }) {
  const questionnaire = survey.surveyType === 'questionaire';
  return (
    <>
      {questionnaire ? (
        <p className="mb-4 text-xs text-muted">
          Shaded: the reader’s picks (green when right, red when wrong). An outlined tick marks a
          right answer they did not pick.
        </p>
      ) : null}
      <ol className="space-y-6" data-answer-view>
        {orderedQuestions(survey.questions).map(([id, question], index) => {
          const value = answer.answers[id];
          const picked = value === undefined ? [] : Array.isArray(value) ? value : [value];
          const comment = answer.answers[`comments-${id}`];
          const scored = questionnaire && question.choices.some((choice) => choice.correctChoice);
          return (
            <li key={id} data-question={id}>
              <p className="font-serif text-lg leading-snug">
                <span className="mr-1.5 text-muted">{index + 1}.</span>
                {question.question}
              </p>
              {question.questionType === 'shortAnswer' ? (
                typeof value === 'string' && value ? (
                  <blockquote className="mt-2 rounded-lg border-l-2 border-accent bg-page/60 px-4 py-2.5 font-serif whitespace-pre-line">
                    {value}
                  </blockquote>
                ) : (
                  <p className="mt-2 text-sm text-muted italic">No answer.</p>
                )
              ) : (
                <ul className="mt-2 space-y-1.5">
                  {question.choices.map((choice) => {
                    const isPicked = picked.includes(choice.choiceId);
                    const isRight = choice.correctChoice === true;
                    const kind = isPicked
                      ? scored
                        ? isRight
                          ? 'picked-right'
                          : 'picked-wrong'
                        : 'picked'
                      : scored && isRight
                        ? 'missed'
                        : 'none';
                    const words = [
                      isPicked ? 'chosen' : null,
                      scored && isRight ? 'right answer' : null,
                    ].filter(Boolean);
                    return (
                      <li
                        key={choice.choiceId}
                        className={`flex items-start gap-2.5 rounded-lg px-2.5 py-1.5 text-sm ${
                          isPicked ? 'bg-sunken' : ''
                        }`}
                        data-choice-state={kind}
                      >
                        <Mark kind={kind} />
                        <span className="flex-1">
                          {choice.choice}
                          {words.length ? (
                            <span className="sr-only"> ({words.join(', ')})</span>
                          ) : null}
                        </span>
                        {scored && isRight ? (
                          <span className="shrink-0 text-xs font-semibold text-success">
                            Right answer
                          </span>
                        ) : null}
                      </li>
                    );
                  })}
                  {picked.length === 0 ? (
                    <li className="text-sm text-muted italic">No answer.</li>
                  ) : null}
                </ul>
              )}
              {typeof comment === 'string' && comment ? (
                <p className="mt-2 text-sm">
                  <span className="font-semibold text-muted">Comment: </span>
                  <span className="font-serif whitespace-pre-line">{comment}</span>
                </p>
              ) : null}
            </li>
          );
        })}
      </ol>
    </>
  );
}
