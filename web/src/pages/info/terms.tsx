import { PageContainer, PageHeading } from '../../components/page-heading.tsx';
import { AppLink } from '../../components/layout/app-link.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** The terms of use (/terms). */
export function TermsPage() {
  useDocumentTitle('Terms of use');
  return (
    <PageContainer>
      <PageHeading
        eyebrow="Legal"
        title="Terms of use"
        lead="The short version: your writing stays yours, be kind to one another, and don’t use Margins to hurt anyone."
      />
      <div className="prose-reading">
        <h2>1. Your account</h2>
        <p>
          You need an account to upload manuscripts, comment or bookmark. Keep your password to
          yourself; you are responsible for what happens under your account. You must be old enough
          to agree to these terms where you live, and 18 or over to read manuscripts their authors
          mark as mature.
        </p>
        <h2>2. Your writing stays yours</h2>
        <p>
          You keep every right to the manuscripts, comments and other content you post. You give
          Margins only the permission it needs to run the service: to store your content, convert it
          for reading, and show it to the people you choose. We do not use your manuscripts to train
          machine-learning models, and we do not sell or license them to anyone.
        </p>
        <h2>3. Respect the work of others</h2>
        <ul>
          <li>Don’t copy, publish or share a manuscript you were invited to read.</li>
          <li>Critique the writing, not the writer. Harassment and hate are not welcome.</li>
          <li>Upload only work you have the right to share.</li>
          <li>Don’t try to break, overload or scrape the service.</li>
        </ul>
        <h2>4. Moderation</h2>
        <p>
          Anyone can report a comment or a manuscript. Our moderators may flag, hide or remove
          content and suspend accounts that break these terms. Where we can, we tell you why.
        </p>
        <h2>5. Paid plans and tips</h2>
        <p>
          Some features need a subscription. Prices are shown before you pay, subscriptions renew
          until you cancel, and cancelling stops the next renewal. Tips to authors are voluntary and
          not refundable once paid out.
        </p>
        <h2>6. Changes and ending</h2>
        <p>
          We may change these terms; if a change matters, we tell you before it takes effect. You
          can close your account at any time, and we may close accounts that seriously or repeatedly
          break these terms. Margins is provided as is, and our liability is limited to what the law
          allows.
        </p>
        <p>
          Questions? <AppLink to="/contact">Contact us</AppLink>. See also our{' '}
          <AppLink to="/privacy">privacy notice</AppLink>.
        </p>
      </div>
    </PageContainer>
  );
}
