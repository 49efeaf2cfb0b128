import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOBS } from '../jobs/index.ts';
import { migrationsFolder } from '../paths.ts';
import { copyDataTemplate, stampFileOf, templateIsCurrent } from './data-template.ts';
import { makeDataTemplate } from './data-template-make.ts';
import { openDatabase } from './index.ts';

// The template is the embedded database's: nothing to test again in the PostgreSQL run.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('the ready embedded database', () => {
  let dir: string;
  let template: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'margins-template-'));
    template = path.join(dir, 'template');
    expect(await makeDataTemplate(template)).toBe(true);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is made once: a current template is left as it is', async () => {
    expect(templateIsCurrent(template)).toBe(true);
    expect(await makeDataTemplate(template)).toBe(false);
  });

  it('becomes a migrated database with the job queues, which opens with nothing to do', async () => {
    const dataDir = path.join(dir, 'data');
    mkdirSync(dataDir);
    expect(copyDataTemplate(path.join(dataDir, 'pglite'), template)).toBe(true);
    const database = await openDatabase({ dataDir });
    try {
      const journal = readdirSync(migrationsFolder).filter((name) => name.endsWith('.sql'));
      const pglite = database.pglite!;
      const applied = await pglite.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM drizzle.__drizzle_migrations',
      );
      expect(applied.rows[0]!.count).toBe(journal.length);
      const queues = await pglite.query<{ name: string }>(
        'SELECT name FROM pgboss.queue ORDER BY name',
      );
      const names = queues.rows.map((row) => row.name);
      for (const job of JOBS) expect(names).toEqual(expect.arrayContaining([job.id]));
      // A table of the last migration is there and usable.
      await pglite.query('SELECT count(*) FROM users');
    } finally {
      await database.close();
    }
    expect(existsSync(path.join(dataDir, 'pglite.copying'))).toBe(false);
  });

  it('is not used when made from other migrations, nor over a folder that is not empty', () => {
    const target = path.join(dir, 'elsewhere');
    mkdirSync(target);
    writeFileSync(path.join(target, 'something'), 'not a database');
    expect(copyDataTemplate(target, template)).toBe(false);

    writeFileSync(stampFileOf(template), 'made from older migrations\n');
    expect(templateIsCurrent(template)).toBe(false);
    expect(copyDataTemplate(path.join(dir, 'fresh'), template)).toBe(false);
    expect(existsSync(path.join(dir, 'fresh'))).toBe(false);
  });
});
