import type { LightMyRequestResponse } from 'fastify';
import { SESSION_COOKIE, type PageConfig, type SurveyBody } from '@margins/common';
import type { UserRow } from '../../context.ts';
import { schema, type Executor } from '../../db/index.ts';
import type { StoredQuestion } from '../../db/schema-access.ts';
import { hashToken, randomToken } from '../../lib/tokens.ts';
import { buildUser } from '../../test/factories.ts';
import { TestClient, type TestApp } from '../../test/harness.ts';
import { newInviteCode } from './shared.ts';

type InviteInsert = typeof schema.invites.$inferInsert;

export interface Person {
  user: UserRow;
  client: TestClient;
}

/**
 * A client with a session for a (new or given) user, written straight to the sessions table:
 * no login, so fast and clear of the login rate limits.
 */
export async function personFor(
  test: TestApp,
  overrides: Partial<typeof schema.users.$inferInsert> = {},
): Promise<Person> {
  const user = await buildUser(test.ctx.db, overrides);
  return { user, client: await clientFor(test, user) };
}

export async function clientFor(test: TestApp, user: UserRow): Promise<TestClient> {
  const token = randomToken();
  await test.ctx.db.insert(schema.sessions).values({
    id: hashToken(token),
    userId: user.id,
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  const client = new TestClient(test.app);
  client.cookies.set(SESSION_COOKIE, encodeURIComponent(test.app.signCookie(token)));
  return client;
}

/** An invite row written straight to the database (a user's accepted invite by default). */
export async function buildInvite(
  db: Executor,
  values: Partial<InviteInsert> & Pick<InviteInsert, 'manuscriptId'>,
) {
  const [row] = await db
    .insert(schema.invites)
    .values({
      kind: 'user',
      inviteType: 'private',
      code: newInviteCode(),
      status: 'accepted',
      ...values,
    })
    .returning();
  return row!;
}

/** Two scored questions and a short answer: q1 right = "b", q2 right = {"x", "z"}. */
export const QUIZ: Record<string, StoredQuestion> = {
  q1: {
    question: 'Who keeps the charts?',
    questionType: 'multipleChoice',
    order: 1,
    allowComments: true,
    choices: [
      { choiceId: 'a', choice: 'The ferryman', correctChoice: false },
      { choiceId: 'b', choice: 'The archivist', correctChoice: true },
    ],
  },
  q2: {
    question: 'Which streets move?',
    questionType: 'multipleAnswer',
    order: 2,
    allowComments: false,
    choices: [
      { choiceId: 'x', choice: 'Sallow', correctChoice: true },
      { choiceId: 'y', choice: 'Harbour', correctChoice: false },
      { choiceId: 'z', choice: 'Lantern', correctChoice: true },
    ],
  },
  q3: {
    question: 'What do you read most?',
    questionType: 'shortAnswer',
    order: 3,
    allowComments: false,
    choices: [],
  },
};

/** All right: score 100. */
export const RIGHT_ANSWERS = { q1: 'b', q2: ['x', 'z'], q3: 'Fantasy' };
/** One of two scored questions right: score 50. */
export const HALF_ANSWERS = { q1: 'b', q2: ['x'], q3: 'Crime' };

/** The body of POST /manuscript/survey for QUIZ. */
export const quizBody = (manuscriptId: number, extra: Partial<SurveyBody> = {}): SurveyBody => ({
  manuscript_id: manuscriptId,
  surveyType: 'questionaire',
  questions: QUIZ,
  autoApprove: true,
  autoApprovePercent: 85,
  ...extra,
});

/** A survey row written straight to the database. */
export async function buildSurvey(
  db: Executor,
  manuscriptId: number,
  overrides: Partial<typeof schema.surveys.$inferInsert> = {},
) {
  const [row] = await db
    .insert(schema.surveys)
    .values({
      manuscriptId,
      surveyType: 'questionaire',
      questions: QUIZ,
      autoApprove: true,
      ...overrides,
    })
    .returning();
  return row!;
}

/** A reader's stored answer (pending unless approved). */
export async function buildAnswer(
  db: Executor,
  surveyId: number,
  userId: number,
  approved = false,
) {
  const [row] = await db
    .insert(schema.surveyAnswers)
    .values({
      surveyId,
      userId,
      answers: HALF_ANSWERS,
      score: 50,
      approvedAt: approved ? new Date() : null,
    })
    .returning();
  return row!;
}

/** The page configuration injected into an HTML page. */
export function pageConfigOf(response: LightMyRequestResponse): PageConfig {
  const match = /<script id="page-config" type="application\/json">(.*?)<\/script>/s.exec(
    response.body,
  );
  if (!match) throw new Error(`no page configuration in: ${response.body.slice(0, 200)}`);
  return JSON.parse(match[1]!) as PageConfig;
}

/** GET as a browser does (HTML). */
export const getPage = (client: TestClient, url: string) =>
  client.get(url, { headers: { accept: 'text/html' } });
