import { describe, expect, it } from 'vitest';
import { NO_READER_ACCESS, type ReaderAccess } from '../access/policy.ts';
import {
  can,
  COMMENT_ACTIONS,
  type CommentAction,
  type CommentPolicyManuscript,
  type CommentPolicyUser,
  type PolicyComment,
} from './policy.ts';

const OWNER = 1;
const WRITER = 2;
const VIEWERS = {
  owner: { id: OWNER, role: 'user' },
  writer: { id: WRITER, role: 'user' },
  reader: { id: 3, role: 'user' },
  stranger: { id: 4, role: 'user' },
  anonymous: null,
} satisfies Record<string, CommentPolicyUser>;
type Viewer = keyof typeof VIEWERS;
const ALL = Object.keys(VIEWERS) as Viewer[];

/** Invited readers (writer, reader) have a grant; the stranger has none. */
const accessOf = (viewer: Viewer, extra: Partial<ReaderAccess> = {}): ReaderAccess => ({
  ...NO_READER_ACCESS,
  granted: viewer === 'writer' || viewer === 'reader',
  ...extra,
});

const manuscript = (overrides: Partial<CommentPolicyManuscript> = {}): CommentPolicyManuscript => ({
  userId: OWNER,
  visibility: 'restricted',
  archivedAt: null,
  nsfw: false,
  privateComments: false,
  ...overrides,
});
const comment = (overrides: Partial<PolicyComment> = {}): PolicyComment => ({
  authorId: WRITER,
  deletedAt: null,
  ...overrides,
});

type Table = Record<CommentAction, Viewer[]>;
const OPEN_COMMENTS: Table = {
  list: ['owner', 'writer', 'reader'],
  create: ['owner', 'writer', 'reader'],
  read_text: ['owner', 'writer', 'reader'],
  update: ['writer'],
  delete: ['owner', 'writer'],
  rank: ['owner', 'reader'],
  report: ['owner', 'reader'],
};
const PRIVATE_COMMENTS: Table = {
  ...OPEN_COMMENTS,
  // Only the writer and the owner see the text, so only they may act on what it says.
  read_text: ['owner', 'writer'],
  rank: ['owner'],
  report: ['owner'],
};
const NOBODY: Table = {
  list: [],
  create: [],
  read_text: [],
  update: [],
  delete: [],
  rank: [],
  report: [],
};

const CASES: Array<{
  name: string;
  manuscript: CommentPolicyManuscript;
  comment?: PolicyComment;
  access?: Partial<ReaderAccess>;
  expected: Table;
}> = [
  { name: 'a restricted manuscript', manuscript: manuscript(), expected: OPEN_COMMENTS },
  {
    name: 'private comments',
    manuscript: manuscript({ privateComments: true }),
    expected: PRIVATE_COMMENTS,
  },
  {
    name: 'a public manuscript',
    manuscript: manuscript({ visibility: 'public' }),
    expected: {
      ...OPEN_COMMENTS,
      list: ALL,
      read_text: ALL,
      create: ['owner', 'writer', 'reader', 'stranger'],
      rank: ['owner', 'reader', 'stranger'],
      report: ['owner', 'reader', 'stranger'],
    },
  },
  {
    name: 'a public manuscript with private comments',
    manuscript: manuscript({ visibility: 'public', privateComments: true }),
    expected: {
      ...PRIVATE_COMMENTS,
      list: ALL,
      create: ['owner', 'writer', 'reader', 'stranger'],
    },
  },
  {
    name: 'a deleted comment',
    manuscript: manuscript(),
    comment: comment({ deletedAt: new Date() }),
    expected: { ...NOBODY, list: OPEN_COMMENTS.list, create: OPEN_COMMENTS.create },
  },
  {
    name: 'an archived manuscript',
    manuscript: manuscript({ archivedAt: new Date() }),
    expected: NOBODY,
  },
  {
    name: 'mature content, nobody certified 18+',
    manuscript: manuscript({ nsfw: true }),
    expected: {
      ...NOBODY,
      // The owner passes every gate; for the others the text (and its comments) stay hidden.
      list: ['owner'],
      create: ['owner'],
      read_text: ['owner'],
      delete: ['owner'],
      rank: ['owner'],
      report: ['owner'],
    },
  },
  {
    name: 'mature content, readers certified 18+',
    manuscript: manuscript({ nsfw: true }),
    access: { certified18: true },
    expected: OPEN_COMMENTS,
  },
  {
    name: 'an unanswered questionnaire',
    manuscript: manuscript(),
    access: { questionnaire: 'unanswered' },
    expected: {
      ...NOBODY,
      list: ['owner'],
      create: ['owner'],
      read_text: ['owner'],
      delete: ['owner'],
      rank: ['owner'],
      report: ['owner'],
    },
  },
];

describe('can(user, action, comment, manuscript, access)', () => {
  for (const testCase of CASES) {
    describe(testCase.name, () => {
      for (const action of COMMENT_ACTIONS) {
        it(`${action}: ${testCase.expected[action].join(', ') || 'nobody'}`, () => {
          const subject =
            action === 'list' || action === 'create' ? null : (testCase.comment ?? comment());
          const allowed = ALL.filter((viewer) =>
            can(
              VIEWERS[viewer],
              action,
              subject,
              testCase.manuscript,
              accessOf(viewer, testCase.access),
            ),
          );
          expect(allowed).toEqual(testCase.expected[action]);
        });
      }
    });
  }

  it('refuses comment actions without a comment', () => {
    for (const action of ['read_text', 'update', 'delete', 'rank', 'report'] as const) {
      expect(can(VIEWERS.owner, action, null, manuscript(), accessOf('owner'))).toBe(false);
    }
  });

  it('lets staff read and list only while a report is open, never act for the owner', () => {
    const moderator = { id: 9, role: 'moderator' as const };
    const subject = manuscript({ privateComments: true });
    expect(can(moderator, 'list', null, subject)).toBe(false);
    const reported = { ...NO_READER_ACCESS, openReport: true };
    expect(can(moderator, 'list', null, subject, reported)).toBe(true);
    expect(can(moderator, 'read_text', comment(), subject)).toBe(false);
    expect(can(moderator, 'delete', comment(), subject)).toBe(false);
  });
});
