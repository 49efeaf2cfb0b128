import { randomBytes } from 'node:crypto';
import { schema, type Executor } from '../db/index.ts';
import type { UserRow } from '../context.ts';
import { hashPassword } from '../modules/auth/service.ts';
import type { TestApp } from './harness.ts';
import { TestClient } from './harness.ts';

export const TEST_PASSWORD = 'correct horse battery';
let passwordHash: Promise<string> | null = null;

/** A verified user with a completed sign-up (override anything). */
export async function buildUser(
  db: Executor,
  overrides: Partial<typeof schema.users.$inferInsert> = {},
): Promise<UserRow> {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const suffix = randomBytes(4).toString('hex');
  const [user] = await db
    .insert(schema.users)
    .values({
      email: `user-${suffix}@example.test`,
      passwordHash: await passwordHash,
      displayName: `User ${suffix}`,
      handle: `user_${suffix}`,
      emailVerifiedAt: new Date(),
      signupCompletedAt: new Date(),
      ...overrides,
    })
    .returning();
  return user!;
}

/** A genre category with genres. */
export async function buildGenres(
  db: Executor,
  category = 'fiction',
  names = ['Fantasy', 'Mystery'],
) {
  const [row] = await db.insert(schema.genreCategories).values({ name: category }).returning();
  return db
    .insert(schema.genres)
    .values(names.map((name) => ({ categoryId: row!.id, name })))
    .returning();
}

/** A client logged in as a (new or given) user. */
export async function loggedInClient(
  test: TestApp,
  user?: UserRow,
  ip?: string,
): Promise<{ client: TestClient; user: UserRow }> {
  const account = user ?? (await buildUser(test.ctx.db));
  const client = new TestClient(test.app, ip);
  const response = await client.post('/auth/login', {
    email: account.email,
    password: TEST_PASSWORD,
  });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.body}`);
  return { client, user: account };
}
