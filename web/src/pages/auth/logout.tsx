import { useEffect, useRef, useState } from 'react';
import { api } from '../../api/client.ts';
import { FormAlert } from '../../components/form/fields.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { AuthCard } from './auth-card.tsx';

/** Log out (/auth/logout): POSTs /auth/logout, then goes home. */
export function LogoutPage() {
  const started = useRef(false);
  const [failed, setFailed] = useState(false);
  useDocumentTitle('Logging out');

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    api
      .post('/auth/logout')
      .then(() => window.location.assign('/'))
      .catch(() => setFailed(true));
  }, []);

  return (
    <AuthCard title="Logging you out…" lead="See you between the lines.">
      {failed ? (
        <div className="space-y-4">
          <FormAlert>We could not log you out. Reload the page to try again.</FormAlert>
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => window.location.reload()}
          >
            Try again
          </button>
        </div>
      ) : (
        <p role="status" className="text-sm text-muted">
          One moment.
        </p>
      )}
    </AuthCard>
  );
}
