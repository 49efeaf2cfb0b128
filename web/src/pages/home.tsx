import { AppLink } from '../components/layout/app-link.tsx';
import { usePageConfig } from '../page-config.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';

const STEPS = [
  {
    title: 'Upload your draft',
    text: 'Word, OpenDocument, RTF, Markdown, HTML or plain text. We turn it into a clean, readable page with a table of contents.',
  },
  {
    title: 'Invite your readers',
    text: 'A private link, a direct invite, a request-to-read queue or a public listing. You decide who gets in, and you can screen them with a short questionnaire.',
  },
  {
    title: 'Read the margins',
    text: 'Readers highlight passages and leave notes right beside the text. You see every comment in context, as it arrives.',
  },
];

const NOTES = [
  { who: 'June', text: 'This line gave me chills. Keep it exactly as it is.', tone: 'bg-note-1' },
  { who: 'Ravi', text: 'I lost track of who is speaking here — maybe a tag?', tone: 'bg-note-3' },
];

/** A sample manuscript page with highlights and margin notes, to show the idea at a glance. */
function ManuscriptSample() {
  return (
    <div aria-hidden="true" className="relative mx-auto w-full max-w-md lg:max-w-none">
      <div className="absolute -top-3 -left-3 h-full w-full rotate-[-2deg] rounded-2xl border border-line bg-sunken" />
      <div className="card relative rounded-2xl p-6 sm:p-8 sm:pr-60">
        <span className="absolute inset-y-6 right-56 hidden w-px bg-accent/30 sm:block" />
        <p className="text-[0.7rem] font-semibold tracking-[0.2em] text-muted uppercase">
          Chapter One
        </p>
        <p className="mt-1 font-serif text-xl font-semibold">The Lighthouse Keeper’s Daughter</p>
        <div className="mt-4 space-y-3 font-serif text-[0.95rem] leading-7 text-ink/90">
          <p>
            The fog came in before the boats did, the way it always had, low and patient.{' '}
            <mark className="rounded-sm bg-note-1 px-0.5 text-ink">
              Maren counted the lamps along the harbour wall
            </mark>{' '}
            and found one missing.
          </p>
          <p>
            “You’ll catch your death,” her father said, though he didn’t look up.{' '}
            <mark className="rounded-sm bg-note-3 px-0.5 text-ink">
              Somewhere past the breakwater, a bell rang twice.
            </mark>
          </p>
        </div>
        <div className="mt-5 grid gap-3 sm:absolute sm:top-14 sm:right-5 sm:mt-0 sm:w-46">
          {NOTES.map((note, index) => (
            <div
              key={note.who}
              className={`${note.tone} rounded-lg p-3 text-sm shadow-card ${index === 0 ? 'sm:rotate-2' : 'sm:-rotate-1'}`}
            >
              <p className="font-semibold">{note.who}</p>
              <p className="mt-1 leading-snug text-ink/80">{note.text}</p>
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}

/** The landing page (/): what Margins does, for authors and for readers. */
export function HomePage() {
  const { loginState, currentUser } = usePageConfig();
  useDocumentTitle(null);
  const loggedIn = loginState === 'logged_in';

  const calls = loggedIn ? (
    <AppLink to="/dashboard" className="btn btn-primary px-6 py-3 text-base">
      Go to your dashboard
    </AppLink>
  ) : loginState === 'incomplete' ? (
    <AppLink to="/auth/complete/signup" className="btn btn-primary px-6 py-3 text-base">
      Finish signing up
    </AppLink>
  ) : (
    <>
      <AppLink to="/auth/signup" className="btn btn-primary px-6 py-3 text-base">
        Create your free account
      </AppLink>
      <AppLink to="/auth/login" className="btn btn-secondary px-6 py-3 text-base">
        I already have an account
      </AppLink>
    </>
  );

  return (
    <div className="overflow-x-clip">
      <section className="mx-auto grid max-w-6xl items-center gap-12 px-4 pt-12 pb-16 sm:px-6 sm:pt-20 lg:grid-cols-[1.1fr_1fr] lg:gap-20">
        <div>
          <p className="eyebrow">For writers and their first readers</p>
          <h1 className="mt-4 text-4xl leading-[1.08] font-semibold tracking-tight sm:text-6xl">
            Your manuscript, with notes in the margins.
          </h1>
          <p className="mt-6 max-w-xl font-serif text-lg leading-relaxed text-muted sm:text-xl">
            {loggedIn && currentUser
              ? `Welcome back, ${currentUser.display_name}. Your readers have been busy.`
              : 'Share a draft with beta readers you trust. They read it in the browser, highlight what moves them, and tell you — right beside the line — where the story stumbles.'}
          </p>
          <div className="mt-8 flex flex-wrap gap-3">{calls}</div>
        </div>
        <ManuscriptSample />
      </section>

      <section className="border-y border-line bg-surface/60">
        <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
          <h2 className="text-2xl font-semibold sm:text-3xl">How it works</h2>
          <ol className="mt-8 grid gap-6 md:grid-cols-3">
            {STEPS.map((step, index) => (
              <li key={step.title} className="card p-6">
                <span className="font-serif text-3xl font-semibold text-accent">{index + 1}</span>
                <h3 className="mt-2 text-lg font-semibold">{step.title}</h3>
                <p className="mt-2 text-sm leading-relaxed text-muted">{step.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="mx-auto grid max-w-6xl gap-6 px-4 py-16 sm:px-6 md:grid-cols-2">
        <div className="rounded-2xl bg-note-2 p-7 sm:p-9">
          <h2 className="text-2xl font-semibold">For authors</h2>
          <ul className="mt-4 space-y-2.5 font-serif leading-relaxed">
            <li>Keep drafts private until you are ready, then open them up step by step.</li>
            <li>
              Screen readers with a questionnaire, and approve them yourself or automatically.
            </li>
            <li>Collect structured feedback with a survey at the end.</li>
            <li>See every highlight and comment in context, in real time.</li>
          </ul>
        </div>
        <div className="rounded-2xl bg-note-4 p-7 sm:p-9">
          <h2 className="text-2xl font-semibold">For readers</h2>
          <ul className="mt-4 space-y-2.5 font-serif leading-relaxed">
            <li>Read unpublished work in a calm, book-like reader, on any screen.</li>
            <li>Highlight a passage and leave a note where it belongs.</li>
            <li>Vote on other readers’ comments and keep your place with bookmarks.</li>
            <li>Follow authors whose voices you want to hear more of.</li>
          </ul>
        </div>
      </section>

      <section className="mx-auto max-w-3xl px-4 pb-4 text-center sm:px-6">
        <blockquote className="font-serif text-2xl leading-snug text-ink italic sm:text-3xl">
          “Every book is a conversation. Margins lets it start before the book is finished.”
        </blockquote>
        <p className="mt-6 text-sm text-muted">
          Curious why we built it? <AppLink to="/ourthing">Read our thing</AppLink>.
        </p>
      </section>
    </div>
  );
}
