import { useMutation, useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../../api/client.ts';
import { FormAlert } from '../../components/form/fields.tsx';
import { AppLink } from '../../components/layout/app-link.tsx';
import { usePageConfig } from '../../page-config.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { AuthCard } from './auth-card.tsx';

/** True when this server keeps mails in the development mailbox (/dev/mail answers). */
function useDevMailbox(): boolean {
  const probe = useQuery({
    queryKey: ['dev-mail', 'available'],
    queryFn: async () => {
      try {
        await api.get('/dev/mail');
        return true;
      } catch {
        return false;
      }
    },
    staleTime: Infinity,
  });
  return probe.data === true;
}

function ResendButton() {
  const resend = useMutation({ mutationFn: () => api.post('/auth/verify/resend') });
  if (resend.isSuccess) return <FormAlert tone="success">A fresh link is on its way.</FormAlert>;
  return (
    <div className="space-y-3">
      {resend.isError ? (
        <FormAlert>
          {resend.error instanceof ApiError ? resend.error.error : 'The mail could not be sent.'}
        </FormAlert>
      ) : null}
      <button
        type="button"
        className="btn btn-secondary"
        disabled={resend.isPending}
        onClick={() => resend.mutate()}
      >
        {resend.isPending ? 'Sending…' : 'Send me a new link'}
      </button>
    </div>
  );
}

/** Verify (/auth/verify): "check your inbox" after sign-up, or an invalid link. */
export function VerifyPage() {
  const { data, currentUser } = usePageConfig();
  const devMailbox = useDevMailbox();
  const invalid = data.state === 'invalid';
  useDocumentTitle(invalid ? 'Link expired' : 'Check your inbox');
  const canResend = currentUser !== null && !currentUser.email_verified;

  const devHint = devMailbox ? (
    <FormAlert tone="info">
      This is a development server: no real e-mail is sent. Open the{' '}
      <a href="/dev/mail">development mailbox at /dev/mail</a> to find your link.
    </FormAlert>
  ) : null;

  if (invalid) {
    return (
      <AuthCard
        title="That link has expired"
        lead="This verification link is invalid or has already been used. Links work once and expire after a while."
      >
        <div className="space-y-4">
          {canResend ? (
            <ResendButton />
          ) : (
            <p className="text-sm text-muted">
              <AppLink to="/auth/login">Log in</AppLink> and we’ll send you a new one, or{' '}
              <AppLink to="/auth/signup">sign up again</AppLink>.
            </p>
          )}
          {devHint}
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Check your inbox…"
      lead="We’ve sent you an e-mail with a link to confirm your address. Click it and you’ll be logged straight in to finish setting up your account."
    >
      <div className="space-y-4">
        <div aria-hidden="true" className="flex justify-center py-2">
          <svg viewBox="0 0 120 80" className="h-20 w-32">
            <rect
              x="6"
              y="10"
              width="108"
              height="64"
              rx="8"
              className="fill-note-1 stroke-line"
              strokeWidth="2"
            />
            <path
              d="M8 14 60 50 112 14"
              className="fill-none stroke-accent"
              strokeWidth="3"
              strokeLinejoin="round"
            />
          </svg>
        </div>
        {devHint}
        <p className="text-sm text-muted">
          Nothing after a few minutes? Check your spam folder.
          {canResend ? null : (
            <>
              {' '}
              Used the wrong address? <AppLink to="/auth/signup">Sign up again</AppLink>.
            </>
          )}
        </p>
        {canResend ? <ResendButton /> : null}
      </div>
    </AuthCard>
  );
}
