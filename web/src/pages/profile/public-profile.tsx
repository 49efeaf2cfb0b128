import { useEffect, useRef } from 'react';
import { MESSAGES, publicProfileResponse, type Manuscript, type PublicUser } from '@margins/common';
import { readManuscripts } from '../../api/manuscripts.ts';
import { ManuscriptCard } from '../../components/manuscripts/manuscript-card.tsx';
import { AuthorPopup } from '../../components/author/author-popup.tsx';
import { Avatar } from '../../components/avatar.tsx';
import { SocialLinks } from '../../components/social-links.tsx';
import { PageContainer } from '../../components/page-heading.tsx';
import { usePageConfig } from '../../page-config.ts';
import { socialLinksOf } from '../../lib/social.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { NotFoundPage } from '../not-found.tsx';

/** A public profile (/profile/get/:user_id): picture, names, about, interests and links. */
export function PublicProfilePage() {
  const { data, currentUserId } = usePageConfig();
  const parsed = publicProfileResponse.safeParse(data);
  const user = parsed.success ? parsed.data.user : null;
  useDocumentTitle(user ? user.display_name : 'Profile');
  if (!parsed.success || !user) return <NotFoundPage />;
  const { interests } = parsed.data;
  const isOwn = currentUserId === user.id;

  return (
    <PageContainer>
      <article className="card relative overflow-hidden">
        <div aria-hidden="true" className="h-24 bg-note-2 sm:h-28" />
        <div className="px-5 pb-8 sm:px-9">
          <div className="-mt-12 flex flex-col gap-4 sm:-mt-14 sm:flex-row sm:items-end sm:gap-6">
            <div className="w-fit rounded-full bg-surface p-1.5 shadow-card sm:p-2">
              <Avatar name={user.display_name} picture={user.picture} size="lg" />
            </div>
            <div className="min-w-0 pb-1">
              <h1 className="text-3xl leading-tight font-semibold tracking-tight">
                <AuthorPopup author={user} />
              </h1>
              <p className="mt-1 text-muted" data-testid="profile-handle">
                {user.handle ? `@${user.handle}` : MESSAGES.missingHandle}
                {user.pronouns ? <span> · {user.pronouns}</span> : null}
              </p>
            </div>
            {isOwn ? (
              <a href="/profile/" className="btn btn-secondary sm:mb-1 sm:ml-auto">
                Edit your profile
              </a>
            ) : null}
          </div>

          <section aria-labelledby="about-heading" className="mt-8">
            <h2 id="about-heading" className="eyebrow">
              About
            </h2>
            <p
              className={`mt-2 prose-reading whitespace-pre-line ${user.about ? '' : 'text-muted italic'}`}
              data-testid="profile-about"
            >
              {user.about || MESSAGES.blankBio}
            </p>
          </section>

          <section aria-labelledby="interests-heading" className="mt-8">
            <h2 id="interests-heading" className="eyebrow">
              Interests
            </h2>
            {interests.length ? (
              <ul className="mt-3 flex flex-wrap gap-2" data-testid="profile-interests">
                {interests.map((interest) => (
                  <li
                    key={interest.id}
                    className="rounded-full border border-line bg-page px-3 py-1 text-sm"
                  >
                    {interest.name}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="mt-2 text-muted italic" data-testid="profile-interests">
                {MESSAGES.noneSelected}
              </p>
            )}
          </section>

          <SocialSection user={user} />
        </div>
      </article>
      <UserManuscripts
        name={user.display_name}
        manuscripts={readManuscripts((data as { manuscripts?: unknown }).manuscripts)}
      />
    </PageContainer>
  );
}

/**
 * The author's manuscripts this visitor may open (#user-manuscripts, where the manuscripts
 * link of SPEC §2 lands: /profile/get/{id}/manuscripts scrolls here).
 */
function UserManuscripts({ name, manuscripts }: { name: string; manuscripts: Manuscript[] }) {
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    if (
      window.location.pathname.endsWith('/manuscripts') ||
      window.location.hash === '#user-manuscripts'
    ) {
      section.current?.scrollIntoView();
    }
  }, []);
  return (
    <section
      id="user-manuscripts"
      ref={section}
      aria-labelledby="user-manuscripts-heading"
      className="mt-12 scroll-mt-24"
    >
      <h2 id="user-manuscripts-heading" className="text-2xl font-semibold tracking-tight">
        Manuscripts by {name}
      </h2>
      {manuscripts.length === 0 ? (
        <p className="mt-3 text-muted italic" data-testid="no-user-manuscripts">
          Nothing here you can open yet.
        </p>
      ) : (
        <ul className="mt-8 grid gap-x-6 gap-y-9 sm:grid-cols-2 lg:grid-cols-3">
          {manuscripts.map((manuscript, index) => (
            <li key={manuscript.id}>
              <ManuscriptCard manuscript={manuscript} index={index} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function SocialSection({ user }: { user: PublicUser }) {
  if (socialLinksOf(user).length === 0) return null;
  return (
    <section aria-labelledby="elsewhere-heading" className="mt-8">
      <h2 id="elsewhere-heading" className="eyebrow">
        Elsewhere
      </h2>
      <div className="mt-3">
        <SocialLinks user={user} />
      </div>
    </section>
  );
}
