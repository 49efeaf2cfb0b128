import { describe, expect, it } from 'vitest';
import { INVITE_TYPES, type InviteType } from '@margins/common';
import { NO_READER_ACCESS } from '../access/policy.ts';
import { authorizeChange, can, type ManuscriptAction } from './policy.ts';
import {
  policyManuscript,
  granted,
  reported,
  VIEWERS,
  type Viewer,
} from '../access/test-helpers.ts';

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

describe('can(user, action, manuscript)', () => {
  for (const report of ['no report', 'report open'] as const) {
    const access = report === 'report open' ? reported : NO_READER_ACCESS;
    const readers = report === 'report open' ? READ_REPORTED : READ;
    for (const state of [...INVITE_TYPES, 'archived'] as const) {
      const subject =
        state === 'archived' ? policyManuscript('public', true) : policyManuscript(state);
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

  it('authorizeChange answers the manuscript, or 404 for anyone else alike', () => {
    const live = policyManuscript('public');
    expect(authorizeChange(VIEWERS.owner, 'archive', live)).toBe(live);
    for (const user of [VIEWERS.stranger, VIEWERS.admin]) {
      expect(() => authorizeChange(user, 'edit', live)).toThrow(
        expect.objectContaining({ status: 404 }),
      );
    }
    expect(() => authorizeChange(VIEWERS.owner, 'edit', policyManuscript('public', true))).toThrow(
      expect.objectContaining({ status: 404 }),
    );
    expect(() => authorizeChange(VIEWERS.owner, 'edit', null)).toThrow(
      expect.objectContaining({ status: 404 }),
    );
  });

  it('an invited reader reads, and changes nothing', () => {
    for (const visibility of ['private', 'restricted'] as const) {
      expect(can(VIEWERS.stranger, 'read', policyManuscript(visibility), granted)).toBe(true);
      expect(can(VIEWERS.stranger, 'edit', policyManuscript(visibility), granted)).toBe(false);
    }
  });
});
