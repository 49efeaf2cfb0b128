import { useEffect, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { QUESTIONNAIRE_RELOAD_MS, type Survey } from '@margins/common';
import { api, errorMessage } from '../../../api/client.ts';
import { fetchManuscriptSummary } from '../../../api/manuscripts.ts';
import { SurveyAnswerForm } from '../../../components/surveys/survey-answer-form.tsx';
import { flaggedNotice } from '../../../components/manuscripts/manuscript-card.tsx';
import { InkSpinner } from '../../../components/manuscripts/upload-progress.tsx';
import { reloadPage } from '../../../lib/navigation.ts';

function GateCard({
  tone,
  title,
  children,
  testId,
}: {
  tone: 'danger' | 'accent';
  title: string;
  children: ReactNode;
  testId: string;
}) {
  return (
    <section
      aria-labelledby={`${testId}-title`}
      data-testid={testId}
      className={`mx-auto my-10 max-w-[36rem] rounded-2xl border px-6 py-8 text-center sm:px-10 ${
        tone === 'danger' ? 'border-danger/40 bg-danger-soft' : 'border-line bg-surface shadow-card'
      }`}
    >
      <h2 id={`${testId}-title`} className="text-2xl font-semibold">
        {title}
      </h2>
      <div className="mt-3 font-serif leading-relaxed">{children}</div>
    </section>
  );
}

/** Before a flagged manuscript: the moderators' notice and a button to read on anyway. */
export function ModerationGate({
  reason,
  onContinue,
}: {
  reason: string | null;
  onContinue: () => void;
}) {
  return (
    <GateCard tone="danger" title="A note from our moderators" testId="moderation-gate">
      <p className="font-medium text-danger" role="alert">
        {flaggedNotice(reason)}
      </p>
      <button type="button" className="btn btn-primary mt-6" onClick={onContinue}>
        Continue to the manuscript
      </button>
    </GateCard>
  );
}

/**
 * Before mature text: "I am 18 or over" certifies it (GET /profile/certify18, with the CSRF
 * header) and loads the text. Logged-out readers log in first.
 */
export function MatureGate({
  loggedIn,
  loginUrl,
  onCertified,
}: {
  loggedIn: boolean;
  loginUrl: string;
  onCertified: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const handleCertify = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await api.get('/profile/certify18');
      onCertified();
    } catch (error) {
      setProblem(errorMessage(error));
      setBusy(false);
    }
  };

  return (
    <GateCard tone="accent" title="Mature content" testId="mature-gate">
      <p className="text-muted">
        The author marked this manuscript as mature content. Please confirm you are 18 or over to
        read it.
      </p>
      {problem ? (
        <p role="alert" className="mt-4 text-sm font-medium text-danger">
          {problem}
        </p>
      ) : null}
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        {loggedIn ? (
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy}
            onClick={() => void handleCertify()}
          >
            {busy ? 'Confirming…' : 'I am 18 or over'}
          </button>
        ) : (
          <a href={loginUrl} className="btn btn-primary">
            Log in to confirm your age
          </a>
        )}
        <a href="/dashboard" className="btn btn-secondary">
          Not now
        </a>
      </div>
    </GateCard>
  );
}

/** While the first draft is inking: a spinner, and the page reloads once it is done. */
export function StillInking({ manuscriptId }: { manuscriptId: number }) {
  const summary = useQuery({
    queryKey: ['manuscript-summary', manuscriptId],
    queryFn: () => fetchManuscriptSummary(manuscriptId),
    refetchInterval: 2000,
  });
  useEffect(() => {
    if (summary.data && !summary.data.manuscript.inking) reloadPage();
  }, [summary.data]);
  return (
    <p
      className="my-16 flex items-center justify-center gap-3 font-serif text-lg text-muted"
      role="status"
    >
      <InkSpinner className="size-5" />
      Inking ... the text appears here in a moment.
    </p>
  );
}

/** Logged out, and the manuscript is for members or invited readers: log in (or sign up) first. */
export function LoginGate({ next }: { next: string }) {
  const query = `?next=${encodeURIComponent(next)}`;
  return (
    <GateCard tone="accent" title="Log in or sign up to read" testId="login-gate">
      <p className="text-muted">
        This manuscript is shared with Margins readers. Log in — or make a free account — and you
        come straight back here.
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-3 font-sans">
        <a href={`/auth/login${query}`} className="btn btn-primary">
          Log in
        </a>
        <a href={`/auth/signup${query}`} className="btn btn-secondary">
          Sign up
        </a>
      </div>
    </GateCard>
  );
}

/** Answered; the author has not approved yet (also on later visits). */
export function AwaitingApprovalGate() {
  return (
    <GateCard tone="accent" title="Awaiting Approval" testId="awaiting-approval">
      <p className="text-muted" role="status">
        Thanks — your answers are with the author. You can read as soon as they approve them; we
        will e-mail you when they do.
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-3 font-sans">
        <button type="button" className="btn btn-secondary" onClick={reloadPage}>
          Check again
        </button>
        <a href="/dashboard" className="btn btn-ghost">
          Back to the dashboard
        </a>
      </div>
    </GateCard>
  );
}

/**
 * The questionnaire before the text: the reader answers once (answers are final); approved
 * at once by the score → "Approved!" and the page reloads into the text after 2 s; otherwise
 * "Awaiting Approval" until the author approves them on the answers page.
 */
export function QuestionnaireGate({
  survey,
  manuscriptId,
  userId,
  loginUrl,
}: {
  survey: Survey | null;
  manuscriptId: number;
  userId: number | null;
  loginUrl: string;
}) {
  const [outcome, setOutcome] = useState<'form' | 'approved' | 'awaiting'>('form');

  useEffect(() => {
    if (outcome !== 'approved') return;
    const timer = setTimeout(reloadPage, QUESTIONNAIRE_RELOAD_MS);
    return () => clearTimeout(timer);
  }, [outcome]);

  if (outcome === 'awaiting') return <AwaitingApprovalGate />;
  if (outcome === 'approved') {
    return (
      <GateCard tone="accent" title="Approved!" testId="questionnaire-approved">
        <p className="flex items-center justify-center gap-2 text-muted" role="status">
          <InkSpinner />
          Welcome in. The manuscript opens in a moment…
        </p>
      </GateCard>
    );
  }
  return (
    <section
      aria-labelledby="questionnaire-gate-title"
      data-testid="questionnaire-gate"
      className="mx-auto my-10 max-w-[40rem] rounded-2xl border border-line bg-surface px-5 py-7 shadow-card sm:px-9 sm:py-9"
    >
      <p className="eyebrow text-center">Before you read</p>
      <h2 id="questionnaire-gate-title" className="mt-2 text-center text-2xl font-semibold">
        A few questions from the author
      </h2>
      <p className="mx-auto mt-3 max-w-[32rem] text-center font-serif leading-relaxed text-muted">
        The author asks every reader these questions first.
        {survey?.autoApprove
          ? ' Answer well and you are in straight away; otherwise the author reads your answers.'
          : ' They read your answers and let you in.'}
      </p>
      <div className="mt-7">
        {!survey ? (
          <p role="alert" className="text-center text-danger">
            The questionnaire could not be loaded. Reload the page to try again.
          </p>
        ) : userId === null ? (
          <p className="text-center">
            <a href={loginUrl} className="btn btn-primary">
              Log in to answer
            </a>
          </p>
        ) : (
          <SurveyAnswerForm
            survey={survey}
            manuscriptId={manuscriptId}
            userId={userId}
            requireAll
            submitLabel="Send my answers"
            onSubmitted={(result) => setOutcome(result.approved ? 'approved' : 'awaiting')}
            onAlreadyAnswered={reloadPage}
          />
        )}
      </div>
    </section>
  );
}
