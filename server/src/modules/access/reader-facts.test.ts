import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITE_STATUSES } from '@margins/common';
import type { UserRow } from '../../context.ts';
import { schema, type Database } from '../../db/index.ts';
import { openTestDatabase } from '../../db/test-db.ts';
import { buildUser } from '../../test/factories.ts';
import { buildInvite } from '../invites/test-helpers.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';
import { manuscriptWithReaders, prepareManuscriptWithFacts } from './manuscript-access.ts';
import { readerFacts, type ReaderFacts } from './reader-facts.ts';
import { loadReaderAccess } from './reader-access.ts';

/**
 * The reading facts have one derivation (readerFactsRows); its three callers — loadReaderAccess,
 * a socket write's prepared statement and a join storm's statement — must answer the same, and
 * right, for every invite status × every questionnaire standing × a logged-out viewer, on a
 * manuscript with a questionnaire and on one without.
 */
type Standing = 'unanswered' | 'pending' | 'approved';
const STANDINGS: Standing[] = ['unanswered', 'pending', 'approved'];

let database: Database;
let owner: UserRow;
let withQuestionnaire: number;
let withoutQuestionnaire: number;
/** Every reader, with what their facts must be on the manuscript with a questionnaire. */
const readers: Array<{ user: UserRow; label: string; expected: ReaderFacts }> = [];

beforeAll(async () => {
  database = await openTestDatabase();
  const { db } = database;
  owner = await buildUser(db);
  withQuestionnaire = (await buildManuscript(db, owner, { visibility: 'restricted' })).id;
  withoutQuestionnaire = (await buildManuscript(db, owner, { visibility: 'restricted' })).id;
  const [survey] = await db
    .insert(schema.surveys)
    .values({ manuscriptId: withQuestionnaire, surveyType: 'questionaire', questions: {} })
    .returning();
  // The other survey type is no questionnaire: an answer to it is not a standing.
  const [feedback] = await db
    .insert(schema.surveys)
    .values({ manuscriptId: withoutQuestionnaire, surveyType: 'feedback', questions: {} })
    .returning();
  for (const status of [null, ...INVITE_STATUSES]) {
    for (const standing of STANDINGS) {
      const user = await buildUser(db);
      for (const manuscriptId of [withQuestionnaire, withoutQuestionnaire]) {
        if (status) await buildInvite(db, { manuscriptId, invitedUserId: user.id, status });
      }
      if (standing !== 'unanswered') {
        const approvedAt = standing === 'approved' ? new Date() : null;
        await db.insert(schema.surveyAnswers).values([
          { surveyId: survey!.id, userId: user.id, answers: {}, approvedAt },
          { surveyId: feedback!.id, userId: user.id, answers: {}, approvedAt },
        ]);
      }
      const granted = status === 'accepted' || status === 'approved';
      readers.push({
        user,
        label: `${status ?? 'no invite'}, ${standing}`,
        expected: { granted, questionnaire: standing },
      });
    }
  }
});
afterAll(async () => {
  await database.close();
});

/** What a reader's facts must be on a manuscript (or null: logged out). */
function expectedOn(manuscriptId: number, reader: (typeof readers)[number] | null): ReaderFacts {
  if (!reader) {
    return {
      granted: false,
      questionnaire: manuscriptId === withQuestionnaire ? 'unanswered' : 'none',
    };
  }
  if (manuscriptId === withQuestionnaire) return reader.expected;
  return { granted: reader.expected.granted, questionnaire: 'none' };
}

describe('the reading facts (readerFactsRows and its three callers)', () => {
  it('loadReaderAccess, the prepared statement and the join storm answer alike, and right', async () => {
    const { db } = database;
    const prepared = prepareManuscriptWithFacts(db, 'test_reader_facts');
    for (const manuscriptId of [withQuestionnaire, withoutQuestionnaire]) {
      const manuscript = { id: manuscriptId, userId: owner.id };
      const storm = await manuscriptWithReaders(
        db,
        manuscriptId,
        readers.map(({ user }) => user.id),
      );
      for (const reader of [...readers, null]) {
        const label = `${manuscriptId === withQuestionnaire ? 'questionnaire' : 'none'}: ${reader?.label ?? 'logged out'}`;
        const userId = reader?.user.id ?? null;
        const loaded = await loadReaderAccess({ db }, reader?.user ?? null, manuscript);
        const written = await prepared(userId, manuscriptId);
        const answers = {
          loadReaderAccess: { granted: loaded.granted, questionnaire: loaded.questionnaire },
          prepared: written?.facts,
          storm: storm?.factsOf(userId),
        };
        const expected = expectedOn(manuscriptId, reader);
        expect({ label, ...answers }).toEqual({
          label,
          loadReaderAccess: expected,
          prepared: expected,
          storm: expected,
        });
      }
    }
  });

  it('reads many manuscripts × many readers in one statement', async () => {
    const manuscriptIds = [withQuestionnaire, withoutQuestionnaire];
    const viewers = [...readers.map(({ user }) => user.id), null];
    const factsOf = await readerFacts(database.db, manuscriptIds, viewers);
    for (const manuscriptId of manuscriptIds) {
      for (const reader of [...readers, null]) {
        expect(factsOf(manuscriptId, reader?.user.id ?? null)).toEqual(
          expectedOn(manuscriptId, reader),
        );
      }
    }
  });

  it('has no facts about a manuscript that does not exist', async () => {
    const { db } = database;
    const missing = 2_000_000_000;
    const reader = readers.find(({ expected }) => expected.granted)!.user;
    expect(await manuscriptWithReaders(db, missing, [reader.id])).toBeNull();
    expect(
      await prepareManuscriptWithFacts(db, 'test_reader_facts_missing')(reader.id, missing),
    ).toBeNull();
    expect((await readerFacts(db, [missing], [reader.id]))(missing, reader.id)).toEqual({
      granted: false,
      questionnaire: 'none',
    });
  });
});
