import { useState, type ReactNode } from 'react';
import { api, errorMessage } from '../../../api/client.ts';
import { flaggedNotice } from '../../../components/manuscripts/manuscript-card.tsx';

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
