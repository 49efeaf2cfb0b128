import type { Bookmark, Invite, Manuscript, Survey } from '@margins/common';
import { buildManuscript } from '../../test/manuscripts.ts';

/** Test data of the access area (tests only). */

let nextId = 900;

/** A JSON answer as fetch would give it. */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** A read of a manuscript, with progress. */
export function buildBookmark(
  manuscript: Manuscript = buildManuscript(),
  percent: number | null = null,
): Bookmark {
  return {
    id: nextId++,
    manuscript_id: manuscript.id,
    created: '2026-02-01T10:00:00.000Z',
    progress: {
      block_idx: percent === null ? null : 3,
      percent,
      updated: percent === null ? null : '2026-02-02T10:00:00.000Z',
    },
    manuscript,
  };
}

/** A pending invite to a user. */
export function buildInvite(overrides: Partial<Invite> = {}): Invite {
  return {
    id: nextId++,
    kind: 'user',
    invite_type: 'private',
    status: 'pending',
    link: null,
    user: { id: 40, display_name: 'Sam Reader', handle: 'sam', email: null },
    email: null,
    invite_code: null,
    one_time: false,
    redeemed_at: null,
    manuscript: {
      id: 31,
      title: 'The Salt Road',
      author: { id: 5, display_name: 'Ada Quill', handle: 'ada' },
    },
    created: '2026-02-01T10:00:00.000Z',
    ...overrides,
  };
}

/** A questionnaire: one multipleChoice (right: c2), one multipleAnswer with comments, one text. */
export function buildQuestionnaire(overrides: Partial<Survey> = {}): Survey {
  return {
    id: 7,
    manuscript_id: 31,
    surveyType: 'questionaire',
    questions: {
      q1: {
        question: 'Which coast is the story set on?',
        questionType: 'multipleChoice',
        order: 0,
        allowComments: false,
        choices: [
          { choiceId: 'c1', choice: 'East' },
          { choiceId: 'c2', choice: 'West' },
        ],
      },
      q2: {
        question: 'What do you like to read?',
        questionType: 'multipleAnswer',
        order: 1,
        allowComments: true,
        choices: [
          { choiceId: 'a', choice: 'Mysteries' },
          { choiceId: 'b', choice: 'Sea stories' },
          { choiceId: 'c', choice: 'Poetry' },
        ],
      },
      q3: {
        question: 'Why do you want to read it?',
        questionType: 'shortAnswer',
        order: 2,
        allowComments: false,
        choices: [],
      },
    },
    autoApprove: true,
    autoApprovePercent: 85,
    created: '2026-02-01T10:00:00.000Z',
    updated: '2026-02-01T10:00:00.000Z',
    ...overrides,
  };
}
