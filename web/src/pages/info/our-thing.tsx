import { PageContainer, PageHeading } from '../../components/page-heading.tsx';
import { AppLink } from '../../components/layout/app-link.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** The information page (/ourthing): why Margins exists and what it believes. */
export function OurThingPage() {
  useDocumentTitle('Our thing');
  return (
    <PageContainer>
      <PageHeading
        eyebrow="Our thing"
        title="Every manuscript deserves a first reader."
        lead="Margins began with a shared document, forty comments deep, that nobody could follow any more. We thought the people who read a draft first deserved better tools — and so did the people who wrote it."
      />
      <div className="prose-reading">
        <h2>Why the margins</h2>
        <p>
          Readers have always written in the margins. A pencilled question mark beside a confusing
          paragraph, a line underlined twice, a small “yes!” next to the sentence that landed. Those
          notes are honest because they sit right where the reading happened. Margins keeps them
          there: every highlight and comment is anchored to the words that prompted it.
        </p>
        <h2>What we believe</h2>
        <ul>
          <li>
            <strong>Authors own their work.</strong> Your manuscript is yours. We never train models
            on it, never sell it, and never show it to anyone you have not invited.
          </li>
          <li>
            <strong>Feedback is a gift.</strong> Beta readers give hours of attention. A calm,
            book-like reader and a simple way to leave a note respect that time.
          </li>
          <li>
            <strong>Quiet beats busy.</strong> No streaks, no badges, no feeds designed to keep you
            scrolling. Just the text, the readers and the conversation between them.
          </li>
          <li>
            <strong>Kindness is a feature.</strong> Reports, moderation and private comments are
            there so that honest critique never turns into a pile-on.
          </li>
        </ul>
        <h2>How it fits into your writing</h2>
        <p>
          Upload a draft when you are ready for eyes on it. Invite a handful of trusted readers with
          a private link, open it up to everyone with an account, or list it publicly so new readers
          can discover it. Ask a short questionnaire before someone starts, and a feedback survey
          when they finish. Then read the margins.
        </p>
        <blockquote>
          “The first draft is just you telling yourself the story.” — and the second draft is where
          your readers come in.
        </blockquote>
        <p>
          Questions, ideas, or a story about the draft that got away?{' '}
          <AppLink to="/contact">Write to us</AppLink>. We read every message.
        </p>
      </div>
    </PageContainer>
  );
}
