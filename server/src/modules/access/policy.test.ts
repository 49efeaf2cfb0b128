import { describe, expect, it } from 'vitest';
import { INVITE_TYPES, type InviteType } from '@margins/common';
import {
  can,
  NO_READER_ACCESS,
  opensByReport,
  readGate,
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

// Who may read, per visibility (private/restricted readers come with the access issue), with
// no report open: staff are readers like anyone else.
const READ: Record<InviteType | 'archived', Viewer[]> = {
  public: ['anonymous', 'stranger', 'owner', 'moderator', 'admin'],
  logged_in: ['stranger', 'owner', 'moderator', 'admin'],
  restricted: ['owner'],
  private: ['owner'],
  archived: [],
};
// While a report on it is open, staff may open it too (archived ones: admins).
const READ_REPORTED: Record<InviteType | 'archived', Viewer[]> = {
  public: ['anonymous', 'stranger', 'owner', 'moderator', 'admin'],
  logged_in: ['stranger', 'owner', 'moderator', 'admin'],
  restricted: ['owner', 'moderator', 'admin'],
  private: ['owner', 'moderator', 'admin'],
  archived: ['admin'],
};
const reported = { ...NO_READER_ACCESS, openReport: true };

describe('can(user, action, manuscript)', () => {
  for (const report of ['no report', 'report open'] as const) {
    const access = report === 'report open' ? reported : NO_READER_ACCESS;
    const readers = report === 'report open' ? READ_REPORTED : READ;
    for (const state of [...INVITE_TYPES, 'archived'] as const) {
      const subject = state === 'archived' ? manuscript('public', true) : manuscript(state);
      for (const viewer of Object.keys(VIEWERS) as Viewer[]) {
        const user = VIEWERS[viewer];
        const expected: Record<ManuscriptAction, boolean> = {
          read: readers[state].includes(viewer),
          edit: viewer === 'owner' && state !== 'archived',
          upload_draft: viewer === 'owner' && state !== 'archived',
          archive: viewer === 'owner' && state !== 'archived',
          view_original:
            (viewer === 'admin' && report === 'report open') ||
            (viewer === 'owner' && state !== 'archived'),
        };
        it(`${state} × ${viewer} × ${report}`, () => {
          const actual = Object.fromEntries(
            (Object.keys(expected) as ManuscriptAction[]).map((action) => [
              action,
              can(user, action, subject, access),
            ]),
          );
          expect(actual).toEqual(expected);
        });
      }
    }
  }

  it('opensByReport: only where staff open what a reader could not', () => {
    const staff = [VIEWERS.moderator, VIEWERS.admin];
    for (const user of staff) {
      expect(opensByReport(user, manuscript('private'), reported)).toBe(true);
      expect(opensByReport(user, manuscript('restricted'), reported)).toBe(true);
      expect(opensByReport(user, manuscript('public'), reported)).toBe(false);
      expect(opensByReport(user, manuscript('private'), NO_READER_ACCESS)).toBe(false);
      // Invited like any reader: no opening to record.
      expect(opensByReport(user, manuscript('private'), { ...reported, granted: true })).toBe(
        false,
      );
    }
    expect(opensByReport(VIEWERS.admin, manuscript('public', true), reported)).toBe(true);
    expect(opensByReport(VIEWERS.moderator, manuscript('public', true), reported)).toBe(false);
    expect(opensByReport(VIEWERS.stranger, manuscript('private'), reported)).toBe(false);
  });

  it('staff meet the gates like readers unless a report is open', () => {
    const mature = { ...manuscript('public'), nsfw: true };
    expect(readGate(VIEWERS.moderator, mature, NO_READER_ACCESS)).toBe('mature');
    expect(readGate(VIEWERS.moderator, mature, reported)).toBeNull();
    expect(readGate(VIEWERS.owner, mature, NO_READER_ACCESS)).toBeNull();
  });

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
