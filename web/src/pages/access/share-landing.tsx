import { useState } from 'react';
import { useLocation } from 'react-router';
import { sharePageData, type ShareState } from '@margins/common';
import { acceptShareLink, requestShareAccess } from '../../api/access.ts';
import { errorMessage } from '../../api/client.ts';
import { readerUrl } from '../../api/manuscripts.ts';
import { AppLink } from '../../components/layout/app-link.tsx';
import { PageContainer } from '../../components/page-heading.tsx';
import { loadPage } from '../../lib/navigation.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { usePageConfig } from '../../page-config.ts';

const TITLES: Record<ShareState, string> = {
  accept: 'You’re invited to read',
  invalid: 'This link doesn’t work',
  used: 'This link was already used',
  not_yours: 'This invite is for someone else',
  unavailable: 'This invite is no longer available',
  request_access: 'Ask for access',
  request_pending: 'Request sent',
  request_refused: 'Request declined',
};

/** Sentences of our own for a state, when the page data has none. */
const FALLBACK: Record<ShareState, string> = {
  accept: 'You are invited to read this manuscript. Accept to add it to your reads.',
  invalid: "This link doesn't work. It may have been deleted, or the manuscript archived.",
  used: 'This one-time link has already been used. Ask the author for a new one.',
  not_yours: 'This invite was sent to someone else.',
  unavailable: 'This invite is no longer available. Ask the author for a new one.',
  request_access: 'This manuscript is restricted: ask the author for access.',
  request_pending: 'You asked for access. The author has not answered yet.',
  request_refused: 'The author declined your request for access.',
};

const ICONS: Record<'stop' | 'key' | 'wait', string> = {
  stop: 'M10 1.5a8.5 8.5 0 1 0 0 17 8.5 8.5 0 0 0 0-17Zm-.9 4.5h1.8v5.2H9.1V6Zm.9 8.6a1.1 1.1 0 1 1 0-2.2 1.1 1.1 0 0 1 0 2.2Z',
  key: 'M13 2a5 5 0 0 0-4.8 6.4L2 14.6V18h3.4v-1.7h1.7v-1.7h1.7l1.8-1.8A5 5 0 1 0 13 2Zm1.2 3.3a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3Z',
  wait: 'M10 1.5a8.5 8.5 0 1 0 0 17 8.5 8.5 0 0 0 0-17Zm.8 4v4.2l3 1.8-.8 1.3-3.8-2.3V5.5h1.6Z',
};

function iconOf(state: ShareState): keyof typeof ICONS {
  if (state === 'request_access' || state === 'accept') return 'key';
  if (state === 'request_pending') return 'wait';
  return 'stop';
}

/**
 * The share-link landing (/share/:code) when the link does not lead straight to the reader:
 * an invite or private link to accept (the manuscript and one button that POSTs the acceptance:
 * opening a link alone changes nothing), a used one-time link, a link or invite that no longer works or is someone else's, and the
 * restricted manuscript's access request (ask, pending, declined).
 */
export function ShareLandingPage() {
  const { data, currentUser } = usePageConfig();
  const { pathname } = useLocation();
  const parsed = sharePageData.safeParse(data);
  const code = parsed.success ? parsed.data.code : decodeURIComponent(pathname.split('/')[2] ?? '');
  const [state, setState] = useState<ShareState>(parsed.success ? parsed.data.state : 'invalid');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const manuscript = parsed.success ? parsed.data.manuscript : null;
  const message =
    parsed.success && parsed.data.state === state ? parsed.data.message : FALLBACK[state];
  useDocumentTitle(TITLES[state]);

  const handleRequest = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const invite = await requestShareAccess(code);
      // A pending invite to the visitor was simply accepted: in they go.
      if (invite.status === 'requested') setState('request_pending');
      else loadPage(readerUrl(invite.manuscript.id));
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  const handleAccept = async () => {
    setBusy(true);
    setProblem(null);
    try {
      loadPage(await acceptShareLink(code));
    } catch (error) {
      setProblem(errorMessage(error));
      setBusy(false);
    }
  };

  const icon = iconOf(state);
  const askable = state === 'request_access';

  return (
    <PageContainer width="narrow">
      <section
        className="card relative overflow-hidden px-6 py-10 text-center sm:px-10"
        aria-labelledby="share-title"
        data-share-state={state}
      >
        <span
          aria-hidden="true"
          className={`mx-auto flex size-14 items-center justify-center rounded-full ${
            icon === 'stop' ? 'bg-danger-soft text-danger' : 'bg-accent-soft text-accent'
          }`}
        >
          <svg viewBox="0 0 20 20" className="size-7 fill-current">
            <path d={ICONS[icon]} />
          </svg>
        </span>
        <h1 id="share-title" className="mt-5 text-2xl font-semibold sm:text-3xl">
          {TITLES[state]}
        </h1>
        <p className="mt-3 font-serif leading-relaxed text-muted" role="status">
          {message}
        </p>

        {manuscript ? (
          <div className="mt-7 rounded-xl border border-line bg-page/60 px-5 py-4 text-left">
            <p className="eyebrow">Manuscript</p>
            <p className="mt-1.5 font-serif text-xl font-semibold">{manuscript.title}</p>
            <p className="text-sm text-muted">by {manuscript.author.display_name}</p>
            {manuscript.summary ? (
              <p className="mt-2 line-clamp-4 font-serif text-sm leading-relaxed text-ink/85">
                {manuscript.summary}
              </p>
            ) : null}
          </div>
        ) : null}

        {problem ? (
          <p role="alert" className="mt-5 text-sm font-medium text-danger">
            {problem}
          </p>
        ) : null}

        <div className="mt-8 flex flex-wrap justify-center gap-3">
          {state === 'accept' ? (
            <button
              type="button"
              className="btn btn-primary"
              disabled={busy}
              onClick={() => void handleAccept()}
            >
              {busy ? 'Adding to your reads…' : 'Accept and start reading'}
            </button>
          ) : null}
          {askable ? (
            <button
              type="button"
              className="btn btn-primary"
              disabled={busy}
              onClick={() => void handleRequest()}
            >
              {busy ? 'Asking…' : 'Ask the author for access'}
            </button>
          ) : null}
          <AppLink to={currentUser ? '/dashboard' : '/'} className="btn btn-secondary">
            {currentUser ? 'Go to your dashboard' : 'Back to the first page'}
          </AppLink>
        </div>
      </section>
    </PageContainer>
  );
}
