import { PageContainer, PageHeading } from '../../components/page-heading.tsx';
import { AppLink } from '../../components/layout/app-link.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** The privacy notice (/privacy). */
export function PrivacyPage() {
  useDocumentTitle('Privacy');
  return (
    <PageContainer>
      <PageHeading
        eyebrow="Legal"
        title="Privacy notice"
        lead="We collect as little as we can, keep it safe, and never sell it. Here is exactly what we keep and why."
      />
      <div className="prose-reading">
        <h2>What we keep</h2>
        <ul>
          <li>
            <strong>Your account:</strong> your e-mail address, a salted hash of your password, your
            display name and handle.
          </li>
          <li>
            <strong>Your profile:</strong> whatever you choose to add — picture, pronouns, a short
            bio, links to your other places, and the genres you like.
          </li>
          <li>
            <strong>Your writing and reading:</strong> the manuscripts you upload, your highlights,
            comments, survey answers and bookmarks.
          </li>
          <li>
            <strong>Payments:</strong> handled by our payment provider. We keep the subscription
            status, never your card number.
          </li>
        </ul>
        <h2>Who sees what</h2>
        <p>
          Your public profile shows your display name, handle, picture, pronouns, bio, social links
          and interests. Your e-mail address is never shown publicly; it is shown only to an author
          who invited you by e-mail. Manuscripts are shown only to the readers their author lets in,
          and private comments only to their writer and the author.
        </p>
        <h2>Cookies</h2>
        <p>
          We set a session cookie to keep you logged in and a security cookie that protects your
          forms from other sites. Your theme choice and whether you dismissed the cookie notice are
          kept in your browser’s local storage. There are no advertising or tracking cookies.
        </p>
        <h2>E-mail</h2>
        <p>
          We send account e-mails (verification, security) and the notifications you choose in your
          profile. You can switch every notification off at any time.
        </p>
        <h2>Your rights</h2>
        <p>
          You can see and change your data in your profile, download your manuscripts, and ask us to
          delete your account and everything in it. <AppLink to="/contact">Contact us</AppLink> and
          we will answer within 30 days.
        </p>
      </div>
    </PageContainer>
  );
}
