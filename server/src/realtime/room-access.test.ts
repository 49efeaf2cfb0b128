import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext, UserRow } from '../context.ts';
import { schema, type Db } from '../db/index.ts';
import { buildUser } from '../test/factories.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { grantReader, revokeReader, SCENE_HTML } from '../modules/comments/test-helpers.ts';
import { loadScope } from '../modules/comments/scope.ts';
import { buildManuscript } from '../modules/manuscripts/test-helpers.ts';
import { RoomAccess } from './room-access.ts';

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp();
});
afterAll(async () => {
  await test.close();
});

/** What a scope check answered: the access facts it allowed with, or the refusal. */
const outcomeOf = (check: Promise<{ access: object }>) =>
  check.then(
    ({ access }) => ({ allowed: access }),
    (error: { statusCode?: number; message: string }) => ({
      refused: `${error.statusCode} ${error.message}`,
    }),
  );

/** ctx with its database's reads counted (select and selectDistinct builders). */
function counted(ctx: AppContext): { ctx: AppContext; reads: () => number } {
  let reads = 0;
  const db = new Proxy(ctx.db, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if ((property === 'select' || property === 'selectDistinct') && typeof value === 'function') {
        return (...args: unknown[]) => {
          reads += 1;
          return (value as (...rest: unknown[]) => unknown).apply(target, args);
        };
      }
      return value;
    },
  }) as Db;
  return { ctx: { ...ctx, db }, reads: () => reads };
}

/**
 * A restricted manuscript with a questionnaire, and one viewer in every standing: the author,
 * staff, readers granted with the questionnaire approved / pending / unanswered, a stranger
 * who answered, and nobody logged in.
 */
async function buildViewers() {
  const { db } = test.ctx;
  const owner = await buildUser(db);
  const manuscript = await buildManuscript(db, owner, { visibility: 'restricted' }, SCENE_HTML);
  const [survey] = await db
    .insert(schema.surveys)
    .values({ manuscriptId: manuscript.id, surveyType: 'questionaire', questions: {} })
    .returning();
  const people = {
    owner,
    staff: await buildUser(db, { role: 'admin' }),
    approved: await buildUser(db),
    pending: await buildUser(db),
    unanswered: await buildUser(db),
    stranger: await buildUser(db),
  };
  for (const reader of [people.approved, people.pending, people.unanswered]) {
    await grantReader(db, manuscript.id, reader.id);
  }
  await db.insert(schema.surveyAnswers).values([
    { surveyId: survey!.id, userId: people.approved.id, answers: {}, approvedAt: new Date() },
    { surveyId: survey!.id, userId: people.pending.id, answers: {} },
    { surveyId: survey!.id, userId: people.stranger.id, answers: {}, approvedAt: new Date() },
  ]);
  const viewers: Array<[string, UserRow | null]> = [...Object.entries(people), ['nobody', null]];
  return { manuscript, viewers };
}

describe('the reading policy of socket events (RoomAccess)', () => {
  it('answers exactly as loadScope for every standing, for joins and for writes', async () => {
    const { manuscript, viewers } = await buildViewers();
    const access = new RoomAccess(test.ctx);
    for (const [name, viewer] of viewers) {
      const expected = await outcomeOf(loadScope(test.ctx, viewer, manuscript.id));
      const joined = await outcomeOf(access.joinScope(viewer, manuscript.id));
      const wrote = await outcomeOf(access.scopeIn(viewer, manuscript.id));
      expect({ name, ...joined }).toEqual({ name, ...expected });
      expect({ name, ...wrote }).toEqual({ name, ...expected });
    }
    // All of them joining together (one statement for the lot) answer the same.
    const together = await Promise.all(
      viewers.map(([, viewer]) => outcomeOf(access.joinScope(viewer, manuscript.id))),
    );
    for (const [index, [name, viewer]] of viewers.entries()) {
      const expected = await outcomeOf(loadScope(test.ctx, viewer, manuscript.id));
      expect({ name, ...together[index] }).toEqual({ name, ...expected });
    }
    // The standings differ: the author and the approved reader are in, the others are not.
    const outcomes = await Promise.all(
      viewers.map(([, viewer]) => outcomeOf(access.scopeIn(viewer, manuscript.id))),
    );
    expect(outcomes.filter((outcome) => 'allowed' in outcome).length).toBe(2);
    // Each asked only when awaited: a refusal left waiting while another is awaited would be an
    // unhandled rejection.
    for (const check of [
      () => access.scopeIn(null, 2_000_000_000),
      () => access.joinScope(null, 2_000_000_000),
    ]) {
      expect(await outcomeOf(check())).toEqual(
        await outcomeOf(loadScope(test.ctx, null, 2_000_000_000)),
      );
    }
  });

  it('reads a join storm in one statement, whatever its size', async () => {
    const { db } = test.ctx;
    const owner = await buildUser(db);
    const manuscript = await buildManuscript(db, owner, { visibility: 'restricted' }, SCENE_HTML);
    const readers = await Promise.all(Array.from({ length: 30 }, () => buildUser(db)));
    for (const reader of readers.slice(0, 20)) await grantReader(db, manuscript.id, reader.id);
    const { ctx, reads } = counted(test.ctx);
    const access = new RoomAccess(ctx);
    const before = reads(); // the writes' prepared statement is built once, here
    const outcomes = await Promise.all(
      [...readers, null].map((viewer) => outcomeOf(access.joinScope(viewer, manuscript.id))),
    );
    expect(reads() - before).toBe(1);
    expect(outcomes.filter((outcome) => 'allowed' in outcome)).toHaveLength(20);
  });

  it('keeps nothing: a write right after a revocation is refused', async () => {
    const { db } = test.ctx;
    const owner = await buildUser(db);
    const reader = await buildUser(db);
    const manuscript = await buildManuscript(db, owner, { visibility: 'restricted' }, SCENE_HTML);
    await grantReader(db, manuscript.id, reader.id);
    const access = new RoomAccess(test.ctx);
    expect(await outcomeOf(access.scopeIn(reader, manuscript.id))).toHaveProperty('allowed');
    expect(await outcomeOf(access.joinScope(reader, manuscript.id))).toHaveProperty('allowed');
    await revokeReader(db, manuscript.id, reader.id);
    expect(await outcomeOf(access.scopeIn(reader, manuscript.id))).toHaveProperty('refused');
    expect(await outcomeOf(access.joinScope(reader, manuscript.id))).toHaveProperty('refused');
  });
});
