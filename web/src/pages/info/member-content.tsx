import { PageContainer, PageHeading } from '../../components/page-heading.tsx';
import { MemberTier } from '../../components/payments/member-tier.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

const PERKS = [
  {
    title: 'More room for your drafts',
    text: 'Higher word limits, so a whole series can live on Margins at once.',
    tone: 'bg-note-1',
  },
  {
    title: 'Reader screening',
    text: 'Questionnaires with automatic approval, so the right readers get in while you sleep.',
    tone: 'bg-note-2',
  },
  {
    title: 'Deeper feedback',
    text: 'Feedback surveys and an overview of every answer, side by side.',
    tone: 'bg-note-3',
  },
  {
    title: 'Support the craft',
    text: 'Your membership keeps Margins independent, ad-free and kind.',
    tone: 'bg-note-4',
  },
];

/** The member content page (/membercontent): what members get. */
export function MemberContentPage() {
  useDocumentTitle('Member content');
  return (
    <PageContainer width="wide">
      <PageHeading
        eyebrow="Membership"
        title="What members get"
        lead="Margins is free to read and free to share a first manuscript. Members get more room, more ways to find the right readers, and the warm feeling of keeping an independent place for writers open."
      />
      <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
        {PERKS.map((perk) => (
          <li key={perk.title} className={`${perk.tone} rounded-2xl p-6 shadow-card`}>
            <h2 className="text-lg font-semibold">{perk.title}</h2>
            <p className="mt-2 font-serif leading-relaxed text-ink/80">{perk.text}</p>
          </li>
        ))}
      </ul>
      <MemberTier />
    </PageContainer>
  );
}
