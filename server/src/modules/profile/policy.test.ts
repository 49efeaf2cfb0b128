import { describe, expect, it } from 'vitest';
import { can, type ProfileAction, type ProfileSubject } from './policy.ts';

const done = new Date('2024-01-01T00:00:00Z');
const subjects = {
  anonymous: null,
  owner: { id: 1, signupCompletedAt: done },
  other: { id: 2, signupCompletedAt: done },
  unfinished: { id: 3, signupCompletedAt: null },
} satisfies Record<string, ProfileSubject | null>;
type Name = keyof typeof subjects;

/** Every role against every action: [actor, action, target, allowed]. */
const table: [Name, ProfileAction, Exclude<Name, 'anonymous'>, boolean][] = [
  ['anonymous', 'view', 'owner', true],
  ['anonymous', 'view', 'unfinished', false],
  ['other', 'view', 'owner', true],
  ['unfinished', 'view', 'unfinished', false],
  ['anonymous', 'update', 'owner', false],
  ['other', 'update', 'owner', false],
  ['owner', 'update', 'owner', true],
  ['unfinished', 'update', 'unfinished', true],
  ['anonymous', 'createInviteCode', 'owner', false],
  ['other', 'createInviteCode', 'owner', false],
  ['owner', 'createInviteCode', 'owner', true],
  ['unfinished', 'createInviteCode', 'unfinished', false],
];

describe('profile policy', () => {
  it.each(table.map(([actor, action, target, allowed]) => ({ actor, action, target, allowed })))(
    '$actor may $action of $target: $allowed',
    ({ actor, action, target, allowed }) => {
      expect(can(subjects[actor], action, subjects[target])).toBe(allowed);
    },
  );
});
