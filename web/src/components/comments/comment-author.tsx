import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { publicProfileResponse, type CommentAuthor, type PublicUser } from '@margins/common';
import { api } from '../../api/client.ts';
import { AuthorPopup } from '../author/author-popup.tsx';
import { initialsOf } from '../avatar.tsx';

/** What a comment carries of its author, as the popup's user until the profile is loaded. */
function asPublicUser(author: CommentAuthor): PublicUser {
  return {
    id: author.id,
    handle: author.handle,
    display_name: author.display_name,
    picture: author.picture,
    about: null,
    pronouns: null,
    bluesky: null,
    discord: null,
    instagram: null,
    facebook: null,
    threads: null,
    mastodon: null,
    twitter: null,
    tiktok: null,
    youtube: null,
    website: null,
  };
}

/**
 * A comment author's picture and name; the name opens their popup card. The full public
 * profile is fetched once the reader shows interest (hover, focus, touch), not for every card.
 */
export function CommentAuthorName({ author }: { author: CommentAuthor }) {
  const [wanted, setWanted] = useState(false);
  const profile = useQuery({
    queryKey: ['public-user', author.id],
    queryFn: async () =>
      publicProfileResponse.parse(await api.get(`/profile/get/${author.id}`)).user,
    enabled: wanted,
    staleTime: 5 * 60_000,
  });
  const want = () => setWanted(true);
  return (
    <span
      className="flex min-w-0 items-center gap-2"
      onPointerEnter={want}
      onPointerDown={want}
      onFocus={want}
    >
      <MiniAvatar name={author.display_name} picture={author.picture} />
      <AuthorPopup
        author={profile.data ?? asPublicUser(author)}
        className="truncate text-sm font-semibold text-ink"
      />
    </span>
  );
}

/** A small round picture or monogram, for cards and the strip of connected users. */
export function MiniAvatar({
  name,
  picture,
  className = 'size-6 text-[0.625rem]',
}: {
  name: string;
  picture: string | null;
  className?: string;
}) {
  if (picture) {
    return (
      <img
        src={picture}
        alt=""
        className={`${className} shrink-0 rounded-full border border-line bg-sunken object-cover`}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className={`${className} inline-flex shrink-0 items-center justify-center rounded-full border border-line bg-accent-soft font-serif font-semibold text-accent`}
    >
      {initialsOf(name)}
    </span>
  );
}
