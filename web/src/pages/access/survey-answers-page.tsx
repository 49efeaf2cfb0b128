import { useState } from 'react';
import {
  surveyResponsesResponse,
  type SurveyAnswer,
  type SurveyResponsesResponse,
} from '@margins/common';
import { approveSurveyAnswer, surveyTypeLabel } from '../../api/access.ts';
import { errorMessage } from '../../api/client.ts';
import { readerUrl } from '../../api/manuscripts.ts';
import { Avatar } from '../../components/avatar.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { useToast } from '../../components/feedback/feedback.tsx';
import { FormAlert } from '../../components/form/fields.tsx';
import { PageContainer, PageHeading } from '../../components/page-heading.tsx';
import { SurveyAnswerView } from '../../components/surveys/survey-answer-view.tsx';
import { formatDate, formatDateTime } from '../../lib/dates.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { usePageConfig } from '../../page-config.ts';
import { NotFoundPage } from '../not-found.tsx';

function StateBadge({ answer, questionnaire }: { answer: SurveyAnswer; questionnaire: boolean }) {
  if (!questionnaire) {
    return (
      <span className="rounded-full border border-line bg-sunken px-2.5 py-0.5 text-xs font-semibold text-muted">
        Answered
      </span>
    );
  }
  return answer.approved ? (
    <span className="rounded-full border border-success/30 bg-success-soft px-2.5 py-0.5 text-xs font-semibold text-success">
      {answer.auto_approved ? 'Auto-approved' : 'Approved'}
    </span>
  ) : (
    <span className="rounded-full border border-accent/30 bg-accent-soft px-2.5 py-0.5 text-xs font-semibold text-accent">
      Awaiting approval
    </span>
  );
}

function scoreText(score: number | null): string {
  return score === null ? 'Not scored' : `${Math.round(score)}%`;
}

/** One response in its modal: every question and answer, and "Approve" for a questionnaire. */
function ResponseDialog({
  data,
  answer,
  onApproved,
  onClose,
}: {
  data: SurveyResponsesResponse;
  answer: SurveyAnswer;
  onApproved: (answer: SurveyAnswer) => void;
  onClose: () => void;
}) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const questionnaire = data.survey.surveyType === 'questionaire';

  const handleApprove = async () => {
    setBusy(true);
    setProblem(null);
    try {
      onApproved(await approveSurveyAnswer(answer.id));
      toast(`${answer.user.display_name} can read now.`);
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={`${answer.user.display_name}’s answers`}
      description={
        <>
          {formatDateTime(answer.created)}
          {questionnaire ? <> · Score {scoreText(answer.score)}</> : null}
        </>
      }
      onClose={onClose}
      testId="survey-response-dialog"
    >
      <div className="mb-5 flex flex-wrap items-center gap-3">
        <StateBadge answer={answer} questionnaire={questionnaire} />
        {answer.approved && answer.approved_at ? (
          <span className="text-xs text-muted">since {formatDate(answer.approved_at)}</span>
        ) : null}
      </div>
      <SurveyAnswerView survey={data.survey} answer={answer} />
      {problem ? (
        <div className="mt-5">
          <FormAlert>{problem}</FormAlert>
        </div>
      ) : null}
      {questionnaire && !answer.approved ? (
        <div className="mt-6 flex flex-wrap items-center gap-3 border-t border-line pt-5">
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy}
            onClick={() => void handleApprove()}
          >
            {busy ? 'Approving…' : 'Approve'}
          </button>
          <p className="text-xs text-muted">
            They can read the manuscript at once, and we let them know by e-mail.
          </p>
        </div>
      ) : null}
    </Dialog>
  );
}

/**
 * The survey answers page (m-survey-answers, /manuscript/:id/survey/:type/responses): every
 * response with its reader, date, score and approval; each opens in a modal, where a
 * questionnaire response can be approved.
 */
export function SurveyAnswersPage() {
  const { data } = usePageConfig();
  const parsed = surveyResponsesResponse.safeParse(data);
  if (!parsed.success) return <NotFoundPage />;
  return <SurveyAnswers initial={parsed.data} />;
}

function SurveyAnswers({ initial }: { initial: SurveyResponsesResponse }) {
  const [answers, setAnswers] = useState(initial.answers);
  const [openId, setOpenId] = useState<number | null>(null);
  const data = { ...initial, answers };
  const { manuscript, survey } = data;
  const questionnaire = survey.surveyType === 'questionaire';
  const label = surveyTypeLabel(survey.surveyType);
  const waiting = answers.filter((answer) => !answer.approved).length;
  const open = answers.find((answer) => answer.id === openId) ?? null;
  useDocumentTitle(`${label} answers · ${manuscript.title}`);

  return (
    <PageContainer width="normal">
      <PageHeading
        eyebrow={`${label} answers`}
        title={manuscript.title}
        lead={
          answers.length === 0
            ? 'Nobody has answered yet.'
            : `${answers.length} ${answers.length === 1 ? 'reader has' : 'readers have'} answered${
                questionnaire && waiting ? ` · ${waiting} awaiting your approval` : ''
              }.`
        }
      >
        <div className="mt-5 flex flex-wrap gap-2 text-sm">
          <a href={readerUrl(manuscript.id)} className="btn btn-secondary min-h-9 px-4">
            Open in the reader
          </a>
          <a href="/dashboard" className="btn btn-ghost min-h-9 px-4">
            Dashboard
          </a>
        </div>
      </PageHeading>

      {answers.length === 0 ? (
        <div className="rounded-2xl border border-dashed border-line bg-surface/50 px-6 py-10 text-center font-serif text-muted">
          {questionnaire
            ? 'When readers answer the questionnaire, their answers wait for you here.'
            : 'When readers send feedback, it collects here.'}
        </div>
      ) : (
        <>
          <p className="mb-3 text-sm text-muted">Open a response to read every answer.</p>
          <ul className="card divide-y divide-line overflow-hidden" aria-label="Responses">
            {answers.map((answer) => (
              <li key={answer.id} data-response={answer.id}>
                <button
                  type="button"
                  className="flex w-full cursor-pointer flex-wrap items-center gap-x-4 gap-y-2 px-4 py-4 text-left transition-colors hover:bg-sunken sm:px-5"
                  onClick={() => setOpenId(answer.id)}
                  // No aria-label: the name comes from the visible text (axe
                  // label-content-name-mismatch), which says all a label would.
                >
                  <Avatar name={answer.user.display_name} picture={answer.user.picture} size="sm" />
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-medium">{answer.user.display_name}</span>
                    <span className="block truncate text-xs text-muted">
                      {answer.user.handle ? `@${answer.user.handle} · ` : ''}
                      {formatDate(answer.created)}
                    </span>
                  </span>
                  {questionnaire ? (
                    <span className="w-20 text-right font-serif text-lg tabular-nums">
                      <span className="sr-only">Score </span>
                      {answer.score === null ? (
                        <span className="text-sm text-muted">—</span>
                      ) : (
                        scoreText(answer.score)
                      )}
                    </span>
                  ) : null}
                  <StateBadge answer={answer} questionnaire={questionnaire} />
                </button>
              </li>
            ))}
          </ul>
        </>
      )}

      {open ? (
        <ResponseDialog
          data={data}
          answer={open}
          onApproved={(approved) =>
            setAnswers((current) =>
              current.map((answer) => (answer.id === approved.id ? approved : answer)),
            )
          }
          onClose={() => setOpenId(null)}
        />
      ) : null}
    </PageContainer>
  );
}
