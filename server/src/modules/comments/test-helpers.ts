import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { SESSION_COOKIE, type HighlightInput } from '@margins/common';
import { SCENE_HTML } from '@margins/common/anchoring/fixtures';
import type { UserRow } from '../../context.ts';
import { schema, type Executor } from '../../db/index.ts';
import { TestClient, type TestApp } from '../../test/harness.ts';
import { buildUser } from '../../test/factories.ts';
import { hashToken, randomToken } from '../../lib/tokens.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';
import { documentText, pointAt } from './document-text.ts';

/** A small manuscript as the normaliser writes it (block ids, "\n" between blocks). */
export { SCENE_HTML };

/** A highlight range for `quote` (its first occurrence) as a browser would send it. */
export function selectionOf(quote: string, html = SCENE_HTML): HighlightInput {
  const doc = documentText(html);
  const start = doc.text.indexOf(quote);
  if (start === -1) throw new Error(`"${quote}" is not in the manuscript`);
  const end = start + quote.length;
  const from = pointAt(doc, start)!;
  const to = pointAt(doc, end, true)!;
  return {
    start,
    end,
    startPath: from.path,
    startOffset: from.offset,
    endPath: to.path,
    endOffset: to.offset,
    selectedText: quote,
  };
}

export const newSelectionId = (): string => `sel-${randomBytes(8).toString('hex')}`;

/**
 * What another reader gets of a highlight that private comments hide: neither its quote nor
 * its place (its offsets would give the quote back from the reader's own text).
 */
export const WITHHELD_HIGHLIGHT = {
  private: true,
  selectedText: '',
  quote: { exact: '', prefix: '', suffix: '' },
  startPath: [],
  endPath: [],
  startOffset: null,
  endOffset: null,
  block_id: null,
  start: null,
  end: null,
};

/** Lets a user read a private or restricted manuscript (an accepted invite). */
export async function grantReader(db: Executor, manuscriptId: number, userId: number) {
  await db.insert(schema.invites).values({
    manuscriptId,
    kind: 'user',
    inviteType: 'restricted',
    invitedUserId: userId,
    code: randomBytes(12).toString('hex'),
    status: 'accepted',
  });
}

/** Takes that access away again. */
export async function revokeReader(db: Executor, manuscriptId: number, userId: number) {
  await db
    .delete(schema.invites)
    .where(
      and(eq(schema.invites.manuscriptId, manuscriptId), eq(schema.invites.invitedUserId, userId)),
    );
}

/**
 * A client with a fresh session for `user`, written straight to the sessions table (no login:
 * fast, and clear of the login rate limit); the cookie is signed as the server signs it.
 */
export async function sessionClient(test: TestApp, user?: UserRow): Promise<Person> {
  const account = user ?? (await buildUser(test.ctx.db));
  const token = randomToken();
  await test.ctx.db.insert(schema.sessions).values({
    id: hashToken(token),
    userId: account.id,
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  const client = new TestClient(test.app);
  client.cookies.set(SESSION_COOKIE, encodeURIComponent(test.app.signCookie(token)));
  return { client, user: account };
}

export interface Person {
  user: UserRow;
  client: TestClient;
}

/**
 * The people around one manuscript: its owner, a writer (the reader whose comments the tests
 * make), another invited reader, a logged-in stranger without access, and an anonymous visitor.
 */
export interface Scene {
  manuscript: typeof schema.manuscripts.$inferSelect;
  owner: Person;
  writer: Person;
  reader: Person;
  stranger: Person;
  anonymous: TestClient;
}

export async function buildScene(
  test: TestApp,
  overrides: Partial<typeof schema.manuscripts.$inferInsert> = {},
): Promise<Scene> {
  const { db } = test.ctx;
  const [owner, writer, reader, stranger] = await Promise.all(
    [0, 1, 2, 3].map(() => sessionClient(test)),
  );
  const manuscript = await buildManuscript(
    db,
    owner!.user,
    { visibility: 'restricted', ...overrides },
    SCENE_HTML,
  );
  await grantReader(db, manuscript.id, writer!.user.id);
  await grantReader(db, manuscript.id, reader!.user.id);
  return {
    manuscript,
    owner: owner!,
    writer: writer!,
    reader: reader!,
    stranger: stranger!,
    anonymous: new TestClient(test.app),
  };
}

/** The writer's comment on a new highlight of `quote`, over HTTP; returns the answer's body. */
export async function postComment(
  client: TestClient,
  manuscriptId: number,
  quote: string,
  text: string,
  selectionId = newSelectionId(),
) {
  const response = await client.post(`/comments/manuscript/${manuscriptId}`, {
    highlight: { selection_id: selectionId, ...selectionOf(quote) },
    comment: text,
  });
  if (response.statusCode !== 200)
    throw new Error(`comment: ${response.statusCode} ${response.body}`);
  return response.json() as {
    comment: { id: number; selection_id: string; comment: string };
    highlight: { selection_id: string };
  };
}
