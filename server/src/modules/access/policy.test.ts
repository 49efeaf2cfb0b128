import { describe, expect, it } from 'vitest';
import { INVITE_TYPES, type InviteType } from '@margins/common';
import {
  can,
  NO_READER_ACCESS,
  readRefusal,
  type ManuscriptAction,
  type PolicyManuscript,
  type PolicyUser,
} from './policy.ts';

const AUTHOR_ID = 1;
const VIEWERS = {
  anonymous: null,
  stranger: { id: 2, role: 'user' },
  owner: { id: AUTHOR_ID, role: 'user' },
  moderator: { id: 3, role: 'moderator' },
  admin: { id: 4, role: 'admin' },
} satisfies Record<string, PolicyUser>;
type Viewer = keyof typeof VIEWERS;

const manuscript = (visibility: InviteType, archived = false): PolicyManuscript => ({
  userId: AUTHOR_ID,
  visibility,
  archivedAt: archived ? new Date() : null,
  nsfw: false,
});
const granted = { ...NO_READER_ACCESS, granted: true };

// Who may read, per visibility (private/restricted readers come with the access issue).
const READ: Record<InviteType | 'archived', Viewer[]> = {
  public: ['anonymous', 'stranger', 'owner', 'moderator', 'admin'],
  logged_in: ['stranger', 'owner', 'moderator', 'admin'],
  restricted: ['owner', 'moderator', 'admin'],
  private: ['owner', 'moderator', 'admin'],
  archived: ['admin'],
};

describe('can(user, action, manuscript)', () => {
  for (const state of [...INVITE_TYPES, 'archived'] as const) {
    const subject = state === 'archived' ? manuscript('public', true) : manuscript(state);
    for (const viewer of Object.keys(VIEWERS) as Viewer[]) {
      const user = VIEWERS[viewer];
      const expected: Record<ManuscriptAction, boolean> = {
        read: READ[state].includes(viewer),
        edit: viewer === 'owner' && state !== 'archived',
        upload_draft: viewer === 'owner' && state !== 'archived',
        archive: viewer === 'owner' && state !== 'archived',
        view_original: viewer === 'admin' || (viewer === 'owner' && state !== 'archived'),
      };
      it(`${state} × ${viewer}`, () => {
        const actual = Object.fromEntries(
          (Object.keys(expected) as ManuscriptAction[]).map((action) => [
            action,
            can(user, action, subject),
          ]),
        );
        expect(actual).toEqual(expected);
      });
    }
  }

  it('lets invited readers in through the access seam, never anonymous ones', () => {
    for (const visibility of ['private', 'restricted'] as const) {
      expect(can(VIEWERS.stranger, 'read', manuscript(visibility), granted)).toBe(true);
      expect(can(VIEWERS.anonymous, 'read', manuscript(visibility), granted)).toBe(false);
      expect(can(VIEWERS.stranger, 'edit', manuscript(visibility), granted)).toBe(false);
    }
    expect(can(VIEWERS.stranger, 'read', manuscript('private', true), granted)).toBe(false);
  });
});

describe('readRefusal', () => {
  it('asks anonymous visitors to log in only where that would be enough', () => {
    expect(readRefusal(null, manuscript('logged_in'))).toBe('login');
    expect(readRefusal(null, manuscript('private'))).toBe('hidden');
    expect(readRefusal(null, manuscript('restricted'))).toBe('hidden');
    expect(readRefusal(null, manuscript('logged_in', true))).toBe('hidden');
    expect(readRefusal(VIEWERS.stranger, manuscript('private'))).toBe('hidden');
    expect(readRefusal(null, manuscript('public'))).toBeNull();
  });
});
