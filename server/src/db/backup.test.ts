import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../test/factories.ts';
import { backupDatabase, restoreDatabase } from './backup.ts';
import { DatabaseLockedError, openDatabase, schema } from './index.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

// Backups of the embedded database only: PostgreSQL has pg_dump.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('backup and restore', () => {
  let folder: string;
  let dataDir: string;
  const original = randomBytes(200_000);

  beforeAll(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'margins-backup-'));
    dataDir = path.join(folder, 'data');
  });
  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  async function snapshot() {
    const database = await openDatabase({ dataDir });
    try {
      const users = await database.db.select({ email: schema.users.email }).from(schema.users);
      const media = await database.db.select().from(schema.media);
      return {
        emails: users.map((user) => user.email).sort(),
        media: media.map((row) => ({ id: row.id, data: Buffer.from(row.data) })),
      };
    } finally {
      await database.close();
    }
  }

  it('restores the data as it was at the backup, uploaded originals included', async () => {
    const database = await openDatabase({ dataDir });
    const author = await buildUser(database.db);
    await database.db.insert(schema.media).values({
      id: 'original-of-the-book',
      ownerId: author.id,
      contentType: 'application/octet-stream',
      byteSize: original.byteLength,
      data: original,
    });
    await database.close();
    const before = await snapshot();

    const file = path.join(folder, 'margins.tar.gz');
    const bytes = await backupDatabase(dataDir, file);
    expect(bytes).toBeGreaterThan(original.byteLength);
    // Written whole or not at all: no temporary file left beside it.
    expect(readdirSync(folder).filter((name) => name.endsWith('.tmp'))).toEqual([]);

    // Changes after the backup…
    const later = await openDatabase({ dataDir });
    await buildUser(later.db);
    await later.db.delete(schema.media).where(eq(schema.media.id, 'original-of-the-book'));
    await later.close();
    expect((await snapshot()).media).toEqual([]);

    // …are gone after the restore, and the upload is back byte for byte.
    const { keptAt } = await restoreDatabase(dataDir, file);
    const after = await snapshot();
    expect(after.emails).toEqual(before.emails);
    expect(after.media).toHaveLength(1);
    expect(after.media[0]!.data.equals(original)).toBe(true);
    expect(keptAt && existsSync(keptAt)).toBeTruthy();
  }, 120_000);

  it('refuses to back up or restore while the server has the database open', async () => {
    const file = path.join(folder, 'margins.tar.gz');
    const running = await openDatabase({ dataDir });
    try {
      await expect(restoreDatabase(dataDir, file)).rejects.toBeInstanceOf(DatabaseLockedError);
      await expect(backupDatabase(dataDir, file)).rejects.toThrow(/is in use by process/);
      await running.db.execute('select 1');
    } finally {
      await running.close();
    }
  }, 60_000);

  it('refuses a file that is not a backup, leaving the database as it was', async () => {
    const before = await snapshot();
    const bogus = path.join(folder, 'not-a-backup.tar.gz');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(bogus, 'hello');
    await expect(restoreDatabase(dataDir, bogus)).rejects.toThrow(/not a backup/);
    expect(await snapshot()).toEqual(before);
  }, 60_000);

  it('runs as `npm run backup`: one line on success, one line naming the holder when running', async () => {
    const run = () =>
      spawnSync(
        process.execPath,
        ['--import', 'tsx', 'src/db/backup-cli.ts', 'backup', 'cli.tar.gz'],
        {
          cwd: path.join(root, 'server'),
          env: { PATH: process.env.PATH, DATA_DIR: dataDir, INIT_CWD: folder },
          encoding: 'utf8',
          timeout: 60_000,
        },
      );
    const done = run();
    expect(done.status, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/^Backed up .* to .*cli\.tar\.gz/);
    expect(existsSync(path.join(folder, 'cli.tar.gz'))).toBe(true);

    const running = await openDatabase({ dataDir });
    try {
      const refused = run();
      expect(refused.status).toBe(1);
      expect(refused.stderr.trim()).toMatch(/is in use by process \d+\. Stop that process/);
    } finally {
      await running.close();
    }
  }, 120_000);
});
