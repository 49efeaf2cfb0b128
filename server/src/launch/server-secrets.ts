import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { schema, type Db } from '../db/index.ts';

const SESSION = 'session';

/**
 * The session secret when SESSION_SECRET is unset (outside production): generated once into the
 * database, so every process on it signs and verifies alike — a login made on one web process is
 * good on the others. The first process to get there writes it; the others read that one. A
 * secret an earlier version kept in DATA_DIR/session-secret is carried over, so its sessions
 * stay signed in.
 */
export async function sharedSessionSecret(db: Db, dataDir: string): Promise<string> {
  const stored = async () => {
    const [row] = await db
      .select({ value: schema.serverSecrets.value })
      .from(schema.serverSecrets)
      .where(eq(schema.serverSecrets.name, SESSION));
    return row?.value;
  };
  // A write only at the first start on a database; every later start reads.
  const known = await stored();
  if (known) return known;
  await db
    .insert(schema.serverSecrets)
    .values({ name: SESSION, value: carriedOverSecret(dataDir) ?? randomBytes(32).toString('hex') })
    .onConflictDoNothing();
  return (await stored())!;
}

function carriedOverSecret(dataDir: string): string | null {
  const file = path.join(dataDir, 'session-secret');
  if (!existsSync(file)) return null;
  const secret = readFileSync(file, 'utf8').trim();
  return secret.length >= 32 ? secret : null;
}
