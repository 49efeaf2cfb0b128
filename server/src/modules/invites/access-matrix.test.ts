import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { io as connectSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITE_TYPES, roomName, type InviteType } from '@margins/common';
import type { UserRow } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import { newSelectionId, SCENE_HTML, selectionOf } from '../comments/test-helpers.ts';
import { byteaValue } from '../manuscripts/bytea.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';
import {
  buildAnswer,
  buildInvite,
  buildSurvey,
  clientFor,
  getPage,
  pageConfigOf,
  RIGHT_ANSWERS,
} from './test-helpers.ts';

/**
 * Who may do what, by HTTP, for every invite type × every kind of viewer × every action. Every
 * manuscript here has a questionnaire (without auto-approval), so the roles cover each step of
 * the gate. Each (invite type, action) gets a fresh manuscript; the people are the same.
 */
const ROLES = [
  'anonymous',
  'stranger',
  'invited', // a pending, not accepted invite
  'accepted', // an accepted invite, questionnaire not answered
  'pending', // accepted, answered, awaiting approval
  'approved', // accepted, answer approved
  'moderator',
  'admin',
  'owner', // last: the author's writes (delete invite, approve) must not hide the others' answers
] as const;
type Role = (typeof ROLES)[number];

const ACTIONS = [
  'readHtml',
  'readJson',
  'readImage',
  'listComments',
  'comment',
  'joinRoom',
  'bookmark',
  'answerSurvey',
  'seeAnswers',
  'approve',
  'invite',
  'deleteInvite',
  'openLink',
  'acceptLink',
] as const;
type Action = (typeof ACTIONS)[number];

/**
 * Read outcomes: `text` (served), `gate:…` (the reader page without the text), `302` (to the
 * login page); the socket room: `joined` or `refused`; a share link: the landing's state, or
 * `→` and what the reader it sends to answers (so a redirect into a 404 cannot pass for a way
 * in); otherwise the HTTP status.
 */
type Outcome = string;
type Row = Record<Action, Outcome>;

const row = (...outcomes: Outcome[]): Row =>
  Object.fromEntries(ACTIONS.map((action, index) => [action, outcomes[index]!])) as Row;

const Q = 'gate:questionnaire';
const A = 'gate:awaiting_approval';
const TO_Q = `→${Q}`;
const TO_A = `→${A}`;
// Columns: html, json, image, list comments, comment, join room, bookmark, answer the
// questionnaire, see answers, approve an answer, invite, delete an invite, open the manuscript's
// share link (GET /share/:code), accept it (POST /share/:code/accept).
// prettier-ignore
const HIDDEN =   row('404',  '404',  '404', '404', '404', 'refused', '404', '404', '404', '404', '404', '404', 'accept', TO_Q);
// prettier-ignore
const ACCEPTED = row(Q,      Q,      '404', '403', '403', 'refused', '403', '200', '403', '403', '403', '403', TO_Q,     TO_Q);
// prettier-ignore
const PENDING =  row(A,      A,      '404', '403', '403', 'refused', '403', '409', '403', '403', '403', '403', TO_A,     TO_A);
// prettier-ignore
const APPROVED = row('text', 'text', '200', '200', '200', 'joined',  '200', '409', '403', '403', '403', '403', '→text',  '→text');
// prettier-ignore
const OWNER =    row('text', 'text', '200', '200', '200', 'joined',  '200', '403', '200', '200', '200', '200', '→text',  '→text');
/** Restricted: a member without a grant is asked to request access (409 to Accept). */
const ASKS: Row = { ...HIDDEN, openLink: 'request_access', acceptLink: '409' };

const PRIVATE: Record<Role, Row> = {
  // prettier-ignore
  anonymous:     row('404',  '404',  '404', '404', '401', 'refused', '401', '401', '401', '401', '401', '401', '401', '401'),
  // The private link lets anyone logged in redeem it: then the questionnaire.
  stranger: HIDDEN,
  invited: HIDDEN,
  accepted: ACCEPTED,
  pending: PENDING,
  approved: APPROVED,
  // Staff do not read at will: with no report open they are strangers (modules/access policy;
  // moderation.test.ts and share.test.ts cover a report open), through a share link too.
  moderator: HIDDEN,
  admin: HIDDEN,
  owner: OWNER,
};
const LOGGED_IN: Record<Role, Row> = {
  ...PRIVATE,
  // prettier-ignore
  anonymous:     row('302',  '401',  '404', '401', '401', 'refused', '401', '401', '401', '401', '401', '401', '401', '401'),
  stranger: ACCEPTED,
  invited: ACCEPTED,
  moderator: ACCEPTED,
  admin: ACCEPTED,
};
const EXPECTED: Record<InviteType, Record<Role, Row>> = {
  private: PRIVATE,
  restricted: { ...PRIVATE, stranger: ASKS, invited: ASKS, moderator: ASKS, admin: ASKS },
  logged_in: LOGGED_IN,
  public: {
    ...LOGGED_IN,
    // prettier-ignore
    anonymous:   row(Q,      Q,      '404', '403', '401', 'refused', '401', '401', '401', '401', '401', '401', TO_Q,  '401'),
  },
};

let test: TestApp;
const users = {} as Record<Exclude<Role, 'anonymous'>, UserRow>;
const clients = {} as Record<Role, TestClient>;
let target: UserRow;
let baseUrl: string;

beforeAll(async () => {
  test = await createTestApp();
  await test.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
  for (const role of ROLES) {
    if (role === 'anonymous') {
      clients.anonymous = new TestClient(test.app);
      continue;
    }
    const staffRole = role === 'moderator' || role === 'admin' ? role : 'user';
    users[role] = await buildUser(test.ctx.db, { role: staffRole });
    clients[role] = await clientFor(test, users[role]);
  }
  target = await buildUser(test.ctx.db);
});
afterAll(async () => {
  await test?.close();
});

/** A manuscript of this invite type with an image, a questionnaire and every role's relation. */
async function buildFixture(visibility: InviteType) {
  const { db } = test.ctx;
  const manuscript = await buildManuscript(db, users.owner, { visibility }, SCENE_HTML);
  const mediaId = randomBytes(12).toString('base64url');
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  await db.insert(schema.media).values({
    id: mediaId,
    ownerId: users.owner.id,
    manuscriptId: manuscript.id,
    contentType: 'image/png',
    byteSize: png.byteLength,
    data: byteaValue(png),
  });
  const survey = await buildSurvey(db, manuscript.id, { autoApprove: false });
  const invited = await buildInvite(db, {
    manuscriptId: manuscript.id,
    inviteType: visibility,
    invitedUserId: users.invited.id,
    createdById: users.owner.id,
    status: 'pending',
  });
  for (const role of ['accepted', 'pending', 'approved'] as const) {
    await buildInvite(db, {
      manuscriptId: manuscript.id,
      inviteType: visibility,
      invitedUserId: users[role].id,
      createdById: users.owner.id,
    });
  }
  const pendingAnswer = await buildAnswer(db, survey.id, users.pending.id);
  await buildAnswer(db, survey.id, users.approved.id, true);
  const link = await buildInvite(db, {
    manuscriptId: manuscript.id,
    kind: 'link',
    inviteType: visibility,
    createdById: users.owner.id,
    status: 'pending',
  });
  return { manuscript, mediaId, pendingAnswer, invited, link };
}

/** What a read answered: text, a gate, the login redirect, or the status. */
function readOutcome(response: LightMyRequestResponse, html: boolean): Outcome {
  if (response.statusCode === 302) {
    return String(response.headers.location).startsWith('/auth/login') ? '302' : 'redirect';
  }
  if (response.statusCode !== 200) return String(response.statusCode);
  type Data = { gate: string | null; html: string };
  const data = html ? (pageConfigOf(response).data as Data) : (response.json() as Data);
  // A page leaves the text to the JSON answer and shows only its opening (the first screen).
  const text = html ? data.html + response.body : data.html;
  if (data.gate) return text.includes(QUOTE) ? `leak:${data.gate}` : `gate:${data.gate}`;
  return text.includes(QUOTE) ? 'text' : 'empty';
}

const QUOTE = 'smelled of cedar and river damp';

/** A share link's answer: its landing's state, or `→` and what the reader it names answers. */
async function linkOutcome(client: TestClient, response: LightMyRequestResponse): Promise<Outcome> {
  if (response.statusCode !== 200) return String(response.statusCode);
  const body = response.json() as { redirect?: string; state?: string };
  if (body.redirect === undefined) return body.state!;
  return `→${readOutcome(await client.get(body.redirect), false)}`;
}

/** Connects a socket with the client's cookies and asks to join the manuscript's room. */
async function joinRoom(client: TestClient, manuscriptId: number): Promise<Outcome> {
  const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const socket = connectSocket(baseUrl, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders: cookie ? { cookie } : {},
  });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const ack = (await socket
      .timeout(5_000)
      .emitWithAck('join', { room: roomName(manuscriptId) })) as { ok: boolean };
    return ack.ok ? 'joined' : 'refused';
  } finally {
    socket.disconnect();
  }
}

async function perform(
  action: Action,
  role: Role,
  fixture: Awaited<ReturnType<typeof buildFixture>>,
): Promise<Outcome> {
  const client = clients[role];
  const id = fixture.manuscript.id;
  const status = (response: LightMyRequestResponse) => String(response.statusCode);
  switch (action) {
    case 'readHtml':
      return readOutcome(await getPage(client, `/manuscript/document/reader/${id}`), true);
    case 'readJson':
      return readOutcome(await client.get(`/manuscript/document/reader/${id}`), false);
    case 'readImage':
      return status(await client.get(`/media/${fixture.mediaId}`));
    case 'listComments':
      return status(await client.get(`/comments/manuscript/${id}`));
    case 'comment':
      return status(
        await client.post(`/comments/manuscript/${id}`, {
          highlight: { selection_id: newSelectionId(), ...selectionOf(QUOTE) },
          comment: 'A note in the margin.',
        }),
      );
    case 'joinRoom':
      return joinRoom(client, id);
    case 'bookmark':
      return status(await client.post(`/bookmark/${id}`));
    case 'answerSurvey':
      return status(
        await client.post(`/manuscript/${id}/survey/questionaire`, {
          user_id: role === 'anonymous' ? 1 : users[role].id,
          answers: RIGHT_ANSWERS,
        }),
      );
    case 'seeAnswers':
      return status(await client.get(`/manuscript/${id}/survey/questionaire/responses`));
    case 'approve':
      return status(
        await client.get(`/manuscript/survey/answer/${fixture.pendingAnswer.id}/approve`),
      );
    case 'invite':
      return status(
        await client.post(`/manuscript/${id}/invite/user`, { username: target.handle }),
      );
    case 'deleteInvite':
      return status(await client.delete(`/manuscript/invite/${fixture.invited.id}`));
    case 'openLink':
      return linkOutcome(client, await client.get(`/share/${fixture.link.code}`));
    case 'acceptLink':
      return linkOutcome(client, await client.post(`/share/${fixture.link.code}/accept`));
  }
}

describe('authorization: every invite type × every role × every action', () => {
  for (const visibility of INVITE_TYPES) {
    for (const action of ACTIONS) {
      it(`${visibility} × ${action}`, async () => {
        const fixture = await buildFixture(visibility);
        const actual: Partial<Record<Role, Outcome>> = {};
        for (const role of ROLES) actual[role] = await perform(action, role, fixture);
        const expected = Object.fromEntries(
          ROLES.map((role) => [role, EXPECTED[visibility][role][action]]),
        );
        expect(actual).toEqual(expected);
      });
    }
  }
});
