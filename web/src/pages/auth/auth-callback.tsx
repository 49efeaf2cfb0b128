import { AppLink } from '../../components/layout/app-link.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { AuthCard } from './auth-card.tsx';

/** Single sign-on callback (/auth/callback): not configured on this server. */
export function AuthCallbackPage() {
  useDocumentTitle('Single sign-on');
  return (
    <AuthCard
      title="Single sign-on is not configured"
      lead="This Margins server does not use an outside sign-in provider. Log in with your e-mail address and password instead."
    >
      <AppLink to="/auth/login" className="btn btn-primary w-full">
        Log in with e-mail
      </AppLink>
    </AuthCard>
  );
}
