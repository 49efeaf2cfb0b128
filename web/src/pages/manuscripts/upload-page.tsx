import { readerUrl } from '../../api/manuscripts.ts';
import { AppLink } from '../../components/layout/app-link.tsx';
import { UploadForm } from '../../components/manuscripts/upload-form.tsx';
import { PageContainer, PageHeading } from '../../components/page-heading.tsx';
import { loadPage } from '../../lib/navigation.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** /manuscript/upload: one file in, and the reader opens when it is inked. */
export function UploadPage() {
  useDocumentTitle('Upload a manuscript');
  return (
    <PageContainer>
      <PageHeading
        eyebrow="New manuscript"
        title="Upload your manuscript"
        lead="Drop in a draft from Word, LibreOffice, Scrivener’s export or a plain text file. We set it as a clean reading page with a table of contents, ready for your first readers."
      />
      <div className="card p-5 sm:p-8">
        <UploadForm onDone={(manuscript) => loadPage(readerUrl(manuscript.id))} />
      </div>
      <p className="mt-6 text-sm text-muted">
        Your manuscript starts private: nobody reads it until you invite them. Manage it any time
        from your <AppLink to="/dashboard">dashboard</AppLink>.
      </p>
    </PageContainer>
  );
}
