import { useMutation } from '@tanstack/react-query';
import { confirmLoginLink, sendLoginLink } from '../../api/auth.ts';
import { ApiError } from '../../api/client.ts';
import { FormAlert } from '../../components/form/fields.tsx';
import { AppLink } from '../../components/layout/app-link.tsx';
import { usePageConfig } from '../../page-config.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { AuthCard } from './auth-card.tsx';

const problemOf = (error: unknown, fallback: string) =>
  error instanceof ApiError ? error.error : fallback;

/** "Send me a log-in link": shown on the log-in page while log-in is throttled. */
export function LoginLinkAction({ email, next }: { email: string; next?: string }) {
  const send = useMutation({
    mutationFn: () => sendLoginLink({ email, ...(next ? { next } : {}) }),
  });
  if (send.isSuccess) return <FormAlert tone="success">{send.data.message}</FormAlert>;
  return (
    <div className="space-y-3">
      {send.isError ? (
        <FormAlert>{problemOf(send.error, 'The mail could not be sent.')}</FormAlert>
      ) : null}
      <button
        type="button"
        className="btn btn-secondary w-full"
        disabled={send.isPending || !email}
        onClick={() => send.mutate()}
      >
        {send.isPending ? 'Sending…' : 'Send me a log-in link'}
      </button>
    </div>
  );
}

/**
 * The mailed one-time link (/auth/login/link?token=): opening it logs no one in; the button
 * POSTs the token with the CSRF header, so a link planted on another site cannot either.
 */
export function LoginLinkPage() {
  const { data } = usePageConfig();
  const token = typeof data.token === 'string' ? data.token : '';
  useDocumentTitle('Log in with your link');
  const confirm = useMutation({
    mutationFn: () => confirmLoginLink(token),
    onSuccess: (response) => window.location.assign(response.next || '/dashboard'),
  });
  return (
    <AuthCard
      title="Log in with your link"
      lead="This link works once and only for a few minutes."
      footer={
        <>
          Link expired? <AppLink to="/auth/login">Log in</AppLink> and ask for a new one.
        </>
      }
    >
      <div className="space-y-4">
        {confirm.isError ? (
          <FormAlert>{problemOf(confirm.error, 'That did not work. Try again.')}</FormAlert>
        ) : null}
        <button
          type="button"
          className="btn btn-primary w-full"
          disabled={!token || confirm.isPending || confirm.isSuccess}
          onClick={() => confirm.mutate()}
        >
          {confirm.isPending || confirm.isSuccess ? 'Logging in…' : 'Log me in'}
        </button>
      </div>
    </AuthCard>
  );
}
