import { randomBytes } from 'node:crypto';
import { count, inArray } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { schema } from '../db/index.ts';
import { hashPassword } from '../modules/auth/service.ts';
import { seedDemoAccess } from './access.ts';
import { seedDemoComments } from './comments.ts';
import { GENRE_CATALOGUE } from './genres.ts';
import { seedDemoInsights } from './insights.ts';
import { seedDemoManuscripts } from './manuscripts.ts';
import { seedDemoProducts } from './products.ts';
import { seedDemoShelf } from './shelf.ts';
import { DEMO_USERS } from './users.ts';
import { startPhase } from '../start-timing.ts';

/** A readable one-time password for a demo account. */
const demoPassword = () => randomBytes(9).toString('base64url');

/**
 * Fills an empty database with the genre catalogue and demo people; returns the start-log
 * report with their e-mails and one-time passwords, or null when there was data already.
 */
export async function seedDemoData(ctx: AppContext): Promise<string | null> {
  // The tiers also come to a database made before payments existed (only when it has none).
  await seedDemoProducts(ctx);
  const [users] = await ctx.db.select({ total: count() }).from(schema.users);
  if ((users?.total ?? 0) > 0) return null;

  const accounts = await Promise.all(
    DEMO_USERS.map(async (user) => {
      const password = demoPassword();
      return { user, password, passwordHash: await hashPassword(password) };
    }),
  );

  await ctx.db.transaction(async (tx) => {
    await seedGenres(tx);
    const genreRows = await tx.select().from(schema.genres);
    const genreId = new Map(genreRows.map((genre) => [genre.name, genre.id]));
    for (const { user, passwordHash } of accounts) {
      const { genres, kind: _kind, ...profile } = user;
      const [row] = await tx
        .insert(schema.users)
        .values({
          ...profile,
          about: profile.about || null,
          passwordHash,
          emailVerifiedAt: new Date(),
          signupCompletedAt: new Date(),
        })
        .returning();
      const ids = genres.map((name) => genreId.get(name)).filter((id) => id !== undefined);
      if (ids.length) {
        await tx
          .insert(schema.userGenres)
          .values(ids.map((id) => ({ userId: row!.id, genreId: id })));
      }
    }
  });
  startPhase('seed-users');
  await seedDemoManuscripts(ctx);
  startPhase('seed-manuscripts');
  await seedDemoAccess(ctx);
  startPhase('seed-access');
  await seedDemoComments(ctx);
  startPhase('seed-comments');
  await seedDemoShelf(ctx);
  startPhase('seed-shelf');
  await seedDemoInsights(ctx);
  startPhase('seed-insights');

  const width = Math.max(...accounts.map(({ user }) => user.email.length));
  return framed([
    'Demo data created. These one-time passwords are shown only now:',
    '',
    ...accounts.map(
      ({ user, password }) => `${user.email.padEnd(width)}  ${password}  (${user.kind})`,
    ),
  ]);
}

/** Lines in a box, so that they stand out among the log lines around them. */
function framed(lines: string[]): string {
  const width = Math.max(...lines.map((line) => line.length));
  const rule = '─'.repeat(width + 2);
  return [`┌${rule}┐`, ...lines.map((line) => `│ ${line.padEnd(width)} │`), `└${rule}┘`, ''].join(
    '\n',
  );
}

/** The genre catalogue; safe to run again (existing names are kept). */
export async function seedGenres(tx: Pick<AppContext['db'], 'insert' | 'select'>): Promise<void> {
  const categories = Object.keys(GENRE_CATALOGUE);
  await tx
    .insert(schema.genreCategories)
    .values(categories.map((name, position) => ({ name, position })))
    .onConflictDoNothing();
  const rows = await tx
    .select()
    .from(schema.genreCategories)
    .where(inArray(schema.genreCategories.name, categories));
  for (const category of rows) {
    await tx
      .insert(schema.genres)
      .values(GENRE_CATALOGUE[category.name]!.map((name) => ({ categoryId: category.id, name })))
      .onConflictDoNothing();
  }
}
