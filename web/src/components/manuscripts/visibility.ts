import type { InviteType } from '@margins/common';

/** Who may read, in plain words, from the most to the least restricted. */
export const VISIBILITY_OPTIONS: { value: InviteType; label: string; help: string }[] = [
  {
    value: 'private',
    label: 'Private',
    help: 'Only the people you invite, by a one-time link or directly.',
  },
  {
    value: 'restricted',
    label: 'On request',
    help: 'Readers can ask for access; you approve each one.',
  },
  {
    value: 'logged_in',
    label: 'Members',
    help: 'Anyone with a Margins account can read it.',
  },
  {
    value: 'public',
    label: 'Public',
    help: 'Anyone with the link, and it can be found on Discover.',
  },
];

const OPENNESS: Record<InviteType, number> = { private: 0, restricted: 1, logged_in: 2, public: 3 };

/**
 * True when a change lets more people read without being asked (SPEC §4: private to
 * logged_in or public, logged_in to public; and the same from restricted), which needs
 * the author's confirmation because the document's permission changes.
 */
export function opensUp(from: InviteType, to: InviteType): boolean {
  return (to === 'logged_in' || to === 'public') && OPENNESS[to] > OPENNESS[from];
}

/** The plain label of a visibility. */
export function visibilityLabel(value: InviteType): string {
  return VISIBILITY_OPTIONS.find((option) => option.value === value)?.label ?? value;
}

/** The confirmation's title, button and explanation for opening a manuscript up. */
export function opensUpWording(to: InviteType): {
  title: string;
  confirm: string;
  explanation: string;
} {
  if (to === 'public') {
    return {
      title: 'Make it public?',
      confirm: 'Yes, make it public',
      explanation:
        'Anyone — with or without an account — will be able to read it, and it can be found on Discover.',
    };
  }
  return {
    title: 'Open it to all members?',
    confirm: 'Yes, open it to members',
    explanation: 'Anyone with a Margins account will be able to read it, without an invite.',
  };
}
