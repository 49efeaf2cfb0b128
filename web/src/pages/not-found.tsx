import { AppLink } from '../components/layout/app-link.tsx';
import { PageContainer } from '../components/page-heading.tsx';
import { useDocumentTitle } from '../lib/use-document-title.ts';

/** The friendly 404 page, also shown for pages this build does not know. */
export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <PageContainer width="narrow">
      <div className="card relative overflow-hidden py-12 pr-6 pl-10 text-center sm:px-14">
        <span
          aria-hidden="true"
          className="absolute inset-y-0 left-5 w-px bg-accent/40 sm:left-8"
        />
        <p className="font-serif text-7xl font-semibold text-accent">404</p>
        <h1 className="mt-4 text-2xl font-semibold">This page is missing from the manuscript</h1>
        <p className="mt-3 font-serif text-muted">
          Perhaps it was cut in revision, or the link lost a few letters along the way.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <AppLink to="/" className="btn btn-primary">
            Back to the first page
          </AppLink>
          <AppLink to="/contact" className="btn btn-secondary">
            Tell us what you were looking for
          </AppLink>
        </div>
      </div>
    </PageContainer>
  );
}
