import { PageContainer, PageHeading } from '../../components/page-heading.tsx';
import { AppLink } from '../../components/layout/app-link.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { usePageConfig } from '../../page-config.ts';

/** /unsubscribe/:token: what the one-click unsubscribe link of a mail did (no login needed). */
export function UnsubscribePage() {
  const { data } = usePageConfig();
  const done = data.outcome === 'done';
  const title = done ? 'Unsubscribed' : 'Nothing to change';
  useDocumentTitle(title);
  return (
    <PageContainer>
      <PageHeading title={title} lead={typeof data.message === 'string' ? data.message : ''} />
      <p>
        <AppLink to="/profile/notification/preferences">Notification preferences</AppLink>
      </p>
    </PageContainer>
  );
}
