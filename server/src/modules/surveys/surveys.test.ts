import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_GATE_MESSAGES, type ReaderPageResponse, type Survey } from '@margins/common';
import { schema } from '../../db/index.ts';
import { lastEvent, noteEventWriters, writtenBy } from '../../test/event-rows.ts';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import {
  buildAnswer,
  buildInvite,
  buildSurvey,
  getPage,
  HALF_ANSWERS,
  pageConfigOf,
  personFor,
  quizBody,
  RIGHT_ANSWERS,
  type Person,
} from '../invites/test-helpers.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';
import { buildReport } from '../moderation/test-helpers.ts';
import { ANSWERS_FINAL, AUTHOR_ANSWERS, NOT_YOUR_ANSWERS, ONLY_QUESTIONNAIRE } from './service.ts';

let test: TestApp;
let author: Person;

beforeAll(async () => {
  test = await createTestApp();
  await noteEventWriters(test.ctx.db);
  author = await personFor(test);
});
afterAll(async () => {
  await test?.close();
});

const newManuscript = (overrides: Parameters<typeof buildManuscript>[2] = {}) =>
  buildManuscript(test.ctx.db, author.user, { visibility: 'logged_in', ...overrides });

const readerJson = async (client: TestClient, manuscriptId: number) =>
  (await client.get(`/manuscript/document/reader/${manuscriptId}`)).json() as ReaderPageResponse;

const submit = (reader: Person, manuscriptId: number, answers: object, type = 'questionaire') =>
  reader.client.post(`/manuscript/${manuscriptId}/survey/${type}`, {
    user_id: reader.user.id,
    answers,
  });

describe('saving and reading a survey', () => {
  it('lets the author save (and replace) a questionnaire; readers never see the right answers', async () => {
    const manuscript = await newManuscript();
    const saved = await author.client.post('/manuscript/survey', quizBody(manuscript.id));
    expect(saved.statusCode, saved.body).toBe(200);
    const survey = saved.json().survey as Survey;
    expect(survey).toMatchObject({
      surveyType: 'questionaire',
      autoApprove: true,
      autoApprovePercent: 85,
    });
    expect(survey.questions.q1!.choices[1]).toEqual({
      choiceId: 'b',
      choice: 'The archivist',
      correctChoice: true,
    });

    const replaced = await author.client.post(
      '/manuscript/survey',
      quizBody(manuscript.id, { autoApprovePercent: 60 }),
    );
    expect(replaced.json().survey).toMatchObject({ id: survey.id, autoApprovePercent: 60 });

    const reader = await personFor(test);
    const got = await reader.client.get(`/manuscript/${manuscript.id}/survey/questionaire`);
    expect(got.statusCode).toBe(200);
    expect(JSON.stringify(got.json())).not.toContain('correctChoice');
    const own = await author.client.get(`/manuscript/${manuscript.id}/survey/questionaire`);
    expect(own.json().survey.questions.q1.choices[1].correctChoice).toBe(true);
    expect(
      (await reader.client.get(`/manuscript/${manuscript.id}/survey/feedback`)).statusCode,
    ).toBe(404);
    // logged_in: a logged-out visitor logs in first.
    expect(
      (await new TestClient(test.app).get(`/manuscript/${manuscript.id}/survey/questionaire`))
        .statusCode,
    ).toBe(401);
  });

  it('writes the questionnaire and its gate_changed event in one transaction', async () => {
    const manuscript = await newManuscript();
    const saved = await author.client.post('/manuscript/survey', quizBody(manuscript.id));
    expect(saved.statusCode, saved.body).toBe(200);
    const event = await lastEvent(test.ctx.db, 'manuscript.gate_changed');
    expect(event.payload).toEqual({ manuscriptId: manuscript.id });
    const surveyId = (saved.json().survey as Survey).id;
    expect(event.writtenBy).toBe(
      await writtenBy(test.ctx.db, schema.surveys, eq(schema.surveys.id, surveyId)),
    );
  });

  it('keeps auto-approval to the questionnaire, and refuses malformed surveys (400)', async () => {
    const manuscript = await newManuscript();
    const feedback = await author.client.post(
      '/manuscript/survey',
      quizBody(manuscript.id, { surveyType: 'feedback' }),
    );
    expect(feedback.json().survey).toMatchObject({ surveyType: 'feedback', autoApprove: false });
    const malformed = await author.client.post('/manuscript/survey', {
      ...quizBody(manuscript.id),
      questions: {
        q1: { question: 'Pick', questionType: 'multipleChoice', order: 1, choices: [] },
      },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors.questions).toBeDefined();
  });

  it('lets only the author manage surveys: 401, 403 for readers, 404 for strangers', async () => {
    const manuscript = await newManuscript({ visibility: 'private' });
    const reader = await personFor(test);
    await buildInvite(test.ctx.db, { manuscriptId: manuscript.id, invitedUserId: reader.user.id });
    const stranger = await personFor(test);
    const body = quizBody(manuscript.id);
    expect((await new TestClient(test.app).post('/manuscript/survey', body)).statusCode).toBe(401);
    expect((await reader.client.post('/manuscript/survey', body)).statusCode).toBe(403);
    expect((await stranger.client.post('/manuscript/survey', body)).statusCode).toBe(404);
    expect(
      (await stranger.client.get(`/manuscript/${manuscript.id}/survey/questionaire`)).statusCode,
    ).toBe(404);
    expect(
      (await new TestClient(test.app).get(`/manuscript/${manuscript.id}/survey/questionaire`))
        .statusCode,
    ).toBe(404);
    await buildSurvey(test.ctx.db, manuscript.id);
    expect(
      (await reader.client.delete(`/manuscript/${manuscript.id}/survey/questionaire`)).statusCode,
    ).toBe(403);
    expect(
      (await author.client.delete(`/manuscript/${manuscript.id}/survey/questionaire`)).statusCode,
    ).toBe(200);
    expect(
      (await author.client.delete(`/manuscript/${manuscript.id}/survey/questionaire`)).statusCode,
    ).toBe(404);
  });
});

describe('the questionnaire gate', () => {
  it('withholds the text until an answer reaches the pass mark (auto-approval), then lets the reader in', async () => {
    const manuscript = await newManuscript();
    await author.client.post('/manuscript/survey', quizBody(manuscript.id));
    const reader = await personFor(test);

    const gated = await readerJson(reader.client, manuscript.id);
    expect(gated).toMatchObject({ gate: 'questionnaire', html: '', toc: [] });
    expect(gated.questionnaire!.questions.q1!.choices[0]).not.toHaveProperty('correctChoice');
    expect((await reader.client.get(`/comments/manuscript/${manuscript.id}`)).statusCode).toBe(403);

    const result = await submit(reader, manuscript.id, RIGHT_ANSWERS);
    expect(result.statusCode, result.body).toBe(200);
    expect(result.json()).toMatchObject({ status: 'approved', approved: true });
    const open = await readerJson(reader.client, manuscript.id);
    expect(open.gate).toBeNull();
    expect(open.html).toContain('Once upon a time');
    expect((await reader.client.get(`/comments/manuscript/${manuscript.id}`)).statusCode).toBe(200);
  });

  it('makes a reader below the pass mark wait until the author approves them', async () => {
    const manuscript = await newManuscript();
    await author.client.post('/manuscript/survey', quizBody(manuscript.id));
    const reader = await personFor(test);
    const result = await submit(reader, manuscript.id, HALF_ANSWERS);
    expect(result.json()).toMatchObject({ status: 'awaiting_approval', approved: false });
    const waiting = await readerJson(reader.client, manuscript.id);
    expect(waiting).toMatchObject({ gate: 'awaiting_approval', html: '' });

    const responses = await author.client.get(
      `/manuscript/${manuscript.id}/survey/questionaire/responses`,
    );
    expect(responses.statusCode).toBe(200);
    const [answer] = responses.json().answers;
    expect(answer).toMatchObject({
      user: { id: reader.user.id },
      score: 50,
      approved: false,
      answers: { q1: 'b', q2: ['x'], q3: 'Crime' },
    });
    expect(JSON.stringify(responses.json())).not.toContain(reader.user.email);

    const approveUrl = `/manuscript/survey/answer/${answer.id}/approve`;
    expect((await author.client.get(approveUrl, { csrf: false })).statusCode).toBe(403);
    expect((await reader.client.get(approveUrl)).statusCode).toBe(403);
    const approved = await author.client.get(approveUrl);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().answer).toMatchObject({ approved: true, auto_approved: false });
    const again = await author.client.get(approveUrl);
    expect(again.json().answer.approved_at).toBe(approved.json().answer.approved_at);
    expect((await readerJson(reader.client, manuscript.id)).gate).toBeNull();
  });

  it('auto-approves exactly at the pass mark, never below, never with approvals_required', async () => {
    const atMark = await newManuscript();
    await author.client.post('/manuscript/survey', quizBody(atMark.id, { autoApprovePercent: 50 }));
    const reader = await personFor(test);
    expect((await submit(reader, atMark.id, HALF_ANSWERS)).json().approved).toBe(true);

    const below = await newManuscript();
    await author.client.post('/manuscript/survey', quizBody(below.id, { autoApprovePercent: 51 }));
    expect((await submit(reader, below.id, HALF_ANSWERS)).json().approved).toBe(false);

    const off = await newManuscript();
    await author.client.post('/manuscript/survey', quizBody(off.id, { autoApprove: false }));
    expect((await submit(reader, off.id, RIGHT_ANSWERS)).json().approved).toBe(false);

    const personal = await newManuscript({ approvalsRequired: true });
    await author.client.post('/manuscript/survey', quizBody(personal.id));
    expect((await submit(reader, personal.id, RIGHT_ANSWERS)).json().approved).toBe(false);
  });

  it('keeps answers final: a second submission is a 409 and changes nothing', async () => {
    const manuscript = await newManuscript();
    await author.client.post('/manuscript/survey', quizBody(manuscript.id, { autoApprove: false }));
    const reader = await personFor(test);
    expect((await submit(reader, manuscript.id, HALF_ANSWERS)).statusCode).toBe(200);
    const second = await submit(reader, manuscript.id, RIGHT_ANSWERS);
    expect(second.statusCode).toBe(409);
    expect(second.json().error).toBe(ANSWERS_FINAL);
    const rows = await test.ctx.db
      .select()
      .from(schema.surveyAnswers)
      .where(eq(schema.surveyAnswers.userId, reader.user.id));
    expect(rows.map((row) => row.score)).toEqual([50]);
  });

  it('refuses answers for someone else (403), by the author (403), logged out (401), bad ones (400)', async () => {
    const manuscript = await newManuscript();
    await buildSurvey(test.ctx.db, manuscript.id);
    const reader = await personFor(test);
    const other = await personFor(test);
    const forOther = await reader.client.post(`/manuscript/${manuscript.id}/survey/questionaire`, {
      user_id: other.user.id,
      answers: RIGHT_ANSWERS,
    });
    expect(forOther.statusCode).toBe(403);
    expect(forOther.json().error).toBe(NOT_YOUR_ANSWERS);
    const own = await submit(author, manuscript.id, RIGHT_ANSWERS);
    expect(own.statusCode).toBe(403);
    expect(own.json().error).toBe(AUTHOR_ANSWERS);
    const anonymous = await new TestClient(test.app).post(
      `/manuscript/${manuscript.id}/survey/questionaire`,
      { user_id: 1, answers: RIGHT_ANSWERS },
    );
    expect(anonymous.statusCode).toBe(401);
    const bad = await submit(reader, manuscript.id, { q1: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.q1).toBeDefined();
    expect((await submit(reader, 99999999, RIGHT_ANSWERS)).statusCode).toBe(404);
    const none = await newManuscript();
    expect((await submit(reader, none.id, RIGHT_ANSWERS)).statusCode).toBe(404);
  });

  it('lifts the gate when the author removes the questionnaire', async () => {
    const manuscript = await newManuscript();
    await buildSurvey(test.ctx.db, manuscript.id);
    const reader = await personFor(test);
    expect((await readerJson(reader.client, manuscript.id)).gate).toBe('questionnaire');
    await author.client.delete(`/manuscript/${manuscript.id}/survey/questionaire`);
    expect((await readerJson(reader.client, manuscript.id)).gate).toBeNull();
  });
});

describe('the feedback survey', () => {
  it('is for readers past the gate; once submitted the page shows thanks', async () => {
    const manuscript = await newManuscript();
    const questionnaire = await buildSurvey(test.ctx.db, manuscript.id);
    await buildSurvey(test.ctx.db, manuscript.id, { surveyType: 'feedback', autoApprove: false });
    const reader = await personFor(test);
    const gated = await readerJson(reader.client, manuscript.id);
    expect(gated.feedback_survey).toBeNull();
    const early = await submit(reader, manuscript.id, { q3: 'Too early' }, 'feedback');
    expect(early.statusCode).toBe(403);
    expect(early.json().error).toBe(READ_GATE_MESSAGES.questionnaire);
    expect(
      (await reader.client.get(`/manuscript/${manuscript.id}/survey/feedback`)).statusCode,
    ).toBe(403);

    await buildAnswer(test.ctx.db, questionnaire.id, reader.user.id, true);
    const open = await readerJson(reader.client, manuscript.id);
    expect(open.feedback_survey).toMatchObject({ surveyType: 'feedback' });
    expect(open.feedback_submitted).toBe(false);
    const sent = await submit(reader, manuscript.id, { q3: 'Loved the maps', q1: 'a' }, 'feedback');
    expect(sent.json()).toMatchObject({ status: 'submitted', approved: false });
    expect((await readerJson(reader.client, manuscript.id)).feedback_submitted).toBe(true);
    expect((await submit(reader, manuscript.id, { q3: 'Again' }, 'feedback')).statusCode).toBe(409);

    const { answers } = (
      await author.client.get(`/manuscript/${manuscript.id}/survey/feedback/responses`)
    ).json();
    expect(answers).toMatchObject([{ score: null, answers: { q3: 'Loved the maps' } }]);
    const refused = await author.client.get(`/manuscript/survey/answer/${answers[0].id}/approve`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe(ONLY_QUESTIONNAIRE);
  });
});

describe('the survey answers page', () => {
  it('renders m-survey-answers for the author, not-found for anyone else, login first', async () => {
    const manuscript = await newManuscript();
    await buildSurvey(test.ctx.db, manuscript.id);
    const url = `/manuscript/${manuscript.id}/survey/questionaire/responses`;
    const page = await getPage(author.client, url);
    expect(page.statusCode).toBe(200);
    const config = pageConfigOf(page);
    expect(config.page).toBe('m-survey-answers');
    expect(config.data).toMatchObject({ manuscript: { id: manuscript.id }, answers: [] });
    const reader = await personFor(test);
    expect((await getPage(reader.client, url)).statusCode).toBe(404);
    expect((await reader.client.get(url)).statusCode).toBe(403);
    expect((await getPage(new TestClient(test.app), url)).headers.location).toMatch(
      /^\/auth\/login/,
    );
    expect((await new TestClient(test.app).get(url)).statusCode).toBe(401);
  });
});

describe('the other gates', () => {
  it('withholds mature text until a reader certifies 18+ (the author passes; staff only reviewing a report)', async () => {
    const manuscript = await newManuscript({ nsfw: true });
    const reader = await personFor(test);
    const gated = await readerJson(reader.client, manuscript.id);
    expect(gated).toMatchObject({ gate: 'mature', restricted_mature: true, html: '' });
    await reader.client.get('/profile/certify18');
    const open = await readerJson(reader.client, manuscript.id);
    expect(open).toMatchObject({ gate: null, restricted_mature: false });
    expect(open.html).not.toBe('');
    const moderator = await personFor(test, { role: 'moderator' });
    expect((await readerJson(moderator.client, manuscript.id)).gate).toBe('mature');
    await buildReport(test.ctx.db, { model: 'manuscript', elementId: manuscript.id });
    expect((await readerJson(moderator.client, manuscript.id)).gate).toBeNull();
    expect((await readerJson(author.client, manuscript.id)).gate).toBeNull();
  });

  it('asks for 18+ before the questionnaire', async () => {
    const manuscript = await newManuscript({ nsfw: true });
    await buildSurvey(test.ctx.db, manuscript.id);
    const reader = await personFor(test);
    expect((await readerJson(reader.client, manuscript.id)).gate).toBe('mature');
    const early = await submit(reader, manuscript.id, RIGHT_ANSWERS);
    expect(early.statusCode).toBe(403);
    expect(early.json().error).toBe(READ_GATE_MESSAGES.mature);
    await reader.client.get('/profile/certify18');
    expect((await readerJson(reader.client, manuscript.id)).gate).toBe('questionnaire');
  });

  it('tells non-authors about a moderation flag and its reason first', async () => {
    const manuscript = await newManuscript({ moderationFlag: true, moderationReason: 'Spam' });
    const reader = await personFor(test);
    expect(await readerJson(reader.client, manuscript.id)).toMatchObject({
      restricted_moderation: true,
      moderationReason: 'Spam',
    });
    expect((await readerJson(author.client, manuscript.id)).restricted_moderation).toBe(false);
  });
});
