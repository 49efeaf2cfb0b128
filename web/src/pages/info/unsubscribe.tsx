import { PageContainer, PageHeading } from '../../components/page-heading.tsx';
import { AppLink } from '../../components/layout/app-link.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { usePageConfig } from '../../page-config.ts';

const TITLES: Record<string, string> = {
  ready: 'Unsubscribe from reading reminders',
  done: 'Unsubscribed',
};

/**
 * /unsubscribe/:token (no login needed): opening the link changes nothing (a mail scanner
 * follows links too); the button posts the form, as a mail client's one-click POST does.
 */
export function UnsubscribePage() {
  const { data } = usePageConfig();
  const outcome = typeof data.outcome === 'string' ? data.outcome : '';
  const title = TITLES[outcome] ?? 'Nothing to change';
  useDocumentTitle(title);
  return (
    <PageContainer>
      <PageHeading title={title} lead={typeof data.message === 'string' ? data.message : ''} />
      {outcome === 'ready' && typeof data.action === 'string' ? (
        // A plain form: it works before (or without) the app's script, like the link did.
        <form method="post" action={data.action} className="mb-6">
          <input type="hidden" name="List-Unsubscribe" value="One-Click" />
          <button type="submit" className="btn btn-primary">
            Unsubscribe
          </button>
        </form>
      ) : null}
      <p>
        <AppLink to="/profile/notification/preferences">Notification preferences</AppLink>
      </p>
    </PageContainer>
  );
}
