import { formatUsd } from '@margins/common/pricing';
import { PAYMENT_MESSAGES } from '@margins/common/messages-payments';
import { thanksView } from '@margins/common/schemas/payments';
import { PageContainer, PageHeading } from '../../components/page-heading.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { usePageConfig } from '../../page-config.ts';

/** After a tip (the author's thanks) or a gift; "confirming" while the payment is on its way. */
export function ThanksPage() {
  const { data } = usePageConfig();
  const parsed = thanksView.safeParse(data.thanks);
  useDocumentTitle('Thank you');
  const thanks = parsed.success ? parsed.data : null;

  if (thanks?.kind === 'tip' && thanks.author) {
    return (
      <PageContainer width="narrow">
        <PageHeading
          eyebrow="Tip received"
          title={PAYMENT_MESSAGES.tipThanks(thanks.author.display_name)}
          lead={`Your ${formatUsd(thanks.amount)} goes straight to the writing. Readers like you keep authors going.`}
        />
        <div className="flex flex-wrap gap-3">
          {thanks.manuscript ? (
            <a
              className="btn btn-primary"
              href={`/manuscript/document/reader/${thanks.manuscript.id}`}
            >
              Back to “{thanks.manuscript.title}”
            </a>
          ) : null}
          <a className="btn btn-secondary" href={`/profile/get/${thanks.author.id}`}>
            More from {thanks.author.display_name}
          </a>
        </div>
      </PageContainer>
    );
  }
  if (thanks?.kind === 'gift') {
    return (
      <PageContainer width="narrow">
        <PageHeading
          eyebrow="Gift sent"
          title="Thank you for your gift!"
          lead={`We mailed the code to ${thanks.giftEmail ?? 'the recipient'}. They redeem it on the member page.`}
        />
        <a className="btn btn-primary" href="/products/">
          Back to the plans
        </a>
      </PageContainer>
    );
  }
  return (
    <PageContainer width="narrow">
      <PageHeading
        eyebrow="Almost there"
        title="Thank you!"
        lead="We are confirming your payment with the card provider. Reload this page in a moment."
      />
    </PageContainer>
  );
}
