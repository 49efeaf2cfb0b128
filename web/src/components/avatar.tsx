/** Initials of a name, for the monogram shown when there is no picture. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : words;
  return letters.map((word) => Array.from(word ?? '')[0]?.toUpperCase() ?? '').join('') || '?';
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
