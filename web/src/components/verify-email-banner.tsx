import { useMutation } from '@tanstack/react-query';
import { api, errorMessage } from '../api/client.ts';
import { usePageConfig } from '../page-config.ts';

/** Pages that say it themselves (or where it would be noise). */
const QUIET_PAGES = new Set(['verify', 'logout']);

/**
 * A logged-in user whose e-mail is not confirmed yet: a banner on every page saying that
 * uploading and inviting wait for it, with "Send again" (POST /auth/verify/resend, limited
 * per hour by the server).
 */
export function VerifyEmailBanner() {
  const { currentUser, page } = usePageConfig();
  const resend = useMutation({ mutationFn: () => api.post('/auth/verify/resend') });
  if (!currentUser || currentUser.email_verified || QUIET_PAGES.has(page)) return null;

  return (
    <section
      aria-label="Confirm your e-mail"
      className="border-b border-accent/30 bg-accent-soft px-4 py-3 text-sm"
      data-verify-banner
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2">
        <p className="min-w-0 flex-1">
          <strong className="font-semibold">Confirm your e-mail address</strong> to upload
          manuscripts and invite readers. We mailed a link to{' '}
          <span className="font-medium break-all">{currentUser.email}</span>.
        </p>
        {resend.isSuccess ? (
          <p role="status" className="font-medium text-success">
            A fresh link is on its way.
          </p>
        ) : (
          <>
            {resend.isError ? (
              <p role="alert" className="font-medium text-danger">
                {errorMessage(resend.error, 'The mail could not be sent.')}
              </p>
            ) : null}
            <button
              type="button"
              className="btn btn-secondary min-h-8 px-4"
              disabled={resend.isPending}
              onClick={() => resend.mutate()}
            >
              {resend.isPending ? 'Sending…' : 'Send again'}
            </button>
          </>
        )}
      </div>
    </section>
  );
}
