import { randomBytes } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { schema, type Executor } from '../../db/index.ts';
import type { UserRow } from '../../context.ts';
import { buildUser, loggedInClient } from '../../test/factories.ts';
import type { TestApp, TestClient } from '../../test/harness.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';
import { recordAudit } from './audit.ts';

export interface Person {
  client: TestClient;
  user: UserRow;
}

export interface StaffClients {
  admin: Person;
  moderator: Person;
  member: Person;
}

/** An admin, a moderator and a plain user, each logged in. */
export async function staffClients(test: TestApp): Promise<StaffClients> {
  const admin = await loggedInClient(test, await buildUser(test.ctx.db, { role: 'admin' }));
  const moderator = await loggedInClient(test, await buildUser(test.ctx.db, { role: 'moderator' }));
  const member = await loggedInClient(test);
  return { admin, moderator, member };
}

const unique = () => randomBytes(4).toString('hex');

/** A comment on a new highlight of a manuscript (written straight to the database). */
export async function buildComment(
  db: Executor,
  manuscriptId: number,
  author: UserRow,
  body = `A comment ${unique()}`,
) {
  const selectionId = `sel-${unique()}`;
  await db.insert(schema.highlights).values({
    id: selectionId,
    manuscriptId,
    userId: author.id,
    startPath: [0],
    endPath: [0],
    startOffset: 0,
    endOffset: 4,
    selectedText: 'Once',
    textStart: 0,
    textEnd: 4,
    quoteExact: 'Once',
    quotePrefix: '',
    quoteSuffix: ' upon',
  });
  const [comment] = await db
    .insert(schema.comments)
    .values({ manuscriptId, selectionId, authorId: author.id, body })
    .returning();
  return comment!;
}

export async function buildReportReason(db: Executor, reason = `Reason ${unique()}`) {
  const [row] = await db.insert(schema.reportReasons).values({ reason }).returning();
  return row!;
}

/** One new row of each section, by section name: what the authorization matrix works on. */
export function sectionFactories(db: Executor): Record<string, () => Promise<number>> {
  let categoryId: number | null = null;
  const category = async () => {
    if (categoryId) return categoryId;
    const [row] = await db
      .insert(schema.genreCategories)
      .values({ name: `Category ${unique()}` })
      .returning();
    categoryId = row!.id;
    return categoryId;
  };
  const manuscript = async () => (await buildManuscript(db, await buildUser(db))).id;
  return {
    user: async () => (await buildUser(db)).id,
    manuscript,
    comment: async () => (await buildComment(db, await manuscript(), await buildUser(db))).id,
    bookmark: async () => {
      const [row] = await db
        .insert(schema.bookmarks)
        .values({ userId: (await buildUser(db)).id, manuscriptId: await manuscript() })
        .returning();
      return row!.id;
    },
    genre: async () => {
      const [row] = await db
        .insert(schema.genres)
        .values({ categoryId: await category(), name: `Genre ${unique()}` })
        .returning();
      return row!.id;
    },
    'invite-code': async () => {
      const [row] = await db
        .insert(schema.platformInviteCodes)
        .values({ code: `CODE${unique().toUpperCase()}` })
        .returning();
      return row!.id;
    },
    'report-reason': async () => (await buildReportReason(db)).id,
    // The switches are seeded at start: the maintenance one (its notice is harmless to edit).
    feature: async () => {
      const [row] = await db
        .select({ id: schema.features.id })
        .from(schema.features)
        .where(eq(schema.features.name, 'maintenance'));
      return row!.id;
    },
    'moderation-report': async () => {
      const [row] = await db
        .insert(schema.reports)
        .values({
          modelName: 'manuscript',
          reportElementId: await manuscript(),
          reasonId: (await buildReportReason(db)).id,
          reporterId: (await buildUser(db)).id,
        })
        .returning();
      return row!.id;
    },
    'audit-log': async () => {
      const actor = await buildUser(db, { role: 'admin' });
      await recordAudit(db, {
        actorId: actor.id,
        actorRole: 'admin',
        section: 'user',
        action: 'update',
        entityIds: [actor.id],
      });
      const [row] = await db
        .select({ id: schema.auditLog.id })
        .from(schema.auditLog)
        .orderBy(desc(schema.auditLog.id))
        .limit(1);
      return row!.id;
    },
  };
}
