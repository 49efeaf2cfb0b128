/** A word's first letter (any script) after leading emoji or punctuation; none when a digit comes first. */
const FIRST_LETTER = /^[^\p{L}\p{N}]*(\p{L})/u;

/**
 * Initials of a name, for the monogram shown when there is no picture: the first letter of
 * the first and last words that start with one. Emoji and punctuation are skipped and words
 * led by a digit left out ("🌟 (Ada) Lovelace 2nd" → "AL"), so a monogram never shows half an
 * emoji, a "(" or a "2".
 */
export function initialsOf(name: string): string {
  const firstLetters = name
    .trim()
    .split(/\s+/)
    .map((word) => FIRST_LETTER.exec(word)?.[1])
    .filter((letter): letter is string => letter !== undefined);
  const letters =
    firstLetters.length > 1
      ? [firstLetters[0]!, firstLetters[firstLetters.length - 1]!]
      : firstLetters;
  return letters.map((letter) => letter.toLocaleUpperCase()).join('') || '?';
}

const SIZES = {
  sm: 'size-9 text-sm',
  md: 'size-14 text-lg',
  lg: 'size-24 text-3xl sm:size-28',
} as const;

/** A round profile picture, or a monogram of the name when there is none. */
export function Avatar({
  name,
  picture,
  size = 'md',
}: {
  name: string;
  picture: string | null | undefined;
  size?: keyof typeof SIZES;
}) {
  if (picture) {
    return (
      <img
        src={picture}
        alt=""
        className={`${SIZES[size]} shrink-0 rounded-full border border-line bg-sunken object-cover`}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className={`${SIZES[size]} inline-flex shrink-0 items-center justify-center rounded-full border border-line bg-accent-soft font-serif font-semibold text-accent`}
    >
      {initialsOf(name)}
    </span>
  );
}
