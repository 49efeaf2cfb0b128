import { AppLink } from '../../components/layout/app-link.tsx';
import { usePageConfig } from '../../page-config.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { AuthCard } from './auth-card.tsx';
import { rememberInviteCode } from './invite-code-storage.ts';

/** Invite landing (/auth/invite/landing/:code): explains the invite and leads to sign-up. */
export function InviteLandingPage() {
  const { data, loginState } = usePageConfig();
  const code = typeof data.invite_code === 'string' ? data.invite_code : '';
  useDocumentTitle('You’re invited');

  const completeUrl = `/auth/complete/signup?invite_code=${encodeURIComponent(code)}`;
  const signupUrl = `/auth/signup?next=${encodeURIComponent(completeUrl)}`;

  return (
    <AuthCard
      title="You’re invited to Margins"
      lead="A member has saved you a seat. Margins is where writers share unfinished manuscripts with a few trusted readers — and where those readers leave their notes in the margins."
    >
      <div className="space-y-6">
        {code ? (
          <div className="rounded-xl border border-dashed border-accent/50 bg-note-1 px-4 py-3 text-center">
            <p className="text-xs font-semibold tracking-wider text-muted uppercase">
              Your invite code
            </p>
            <p className="mt-1 font-mono text-lg font-semibold tracking-wider" data-invite-code>
              {code}
            </p>
          </div>
        ) : null}
        {loginState === 'logged_in' ? (
          <p className="text-sm text-muted">
            You already have an account, so you don’t need this invite.{' '}
            <AppLink to="/dashboard">Go to your dashboard</AppLink>.
          </p>
        ) : loginState === 'incomplete' ? (
          <AppLink
            to={completeUrl}
            className="btn btn-primary w-full"
            onClick={() => rememberInviteCode(code)}
          >
            Finish signing up with this code
          </AppLink>
        ) : (
          <>
            <AppLink
              to={signupUrl}
              className="btn btn-primary w-full"
              onClick={() => rememberInviteCode(code)}
            >
              Sign up with this invite
            </AppLink>
            <p className="text-center text-sm text-muted">
              Already a member? <AppLink to="/auth/login">Log in</AppLink>
            </p>
          </>
        )}
      </div>
    </AuthCard>
  );
}
