import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { templateStamp } from './data-template.ts';
import { openDatabase, type Database } from './index.ts';

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or a new database on the
 * PostgreSQL server named by TEST_DATABASE_URL (CI runs the suite both ways). Both start from a
 * template made once per set of migrations (every migration applied, pg-boss's schema and queues
 * installed, as the build's data template has them): a copy takes ~1 s on PGlite instead of ~3 s
 * of initdb and migrations, and ~0.1 s on PostgreSQL instead of ~0.6 s. The template's name
 * carries templateStamp() (the migrations and the versions of PGlite and pg-boss), so a changed
 * migration makes a new one, never a stale copy; the migrations still run on each copy (none is
 * pending, one read).
 */
export async function openTestDatabase(): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return openDatabase({ memory: true, loadDataDir: await pgliteTemplate() });
  const name = `margins_test_${randomBytes(6).toString('hex')}`;
  const template = await serverTemplate(serverUrl);
  await onServer(serverUrl, (admin) => admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  const database = await openDatabase({ databaseUrl: databaseUrlOf(serverUrl, name) });
  return {
    ...database,
    close: async () => {
      await database.close();
      await onServer(serverUrl, (admin) =>
        admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      );
    },
  };
}

const stampTag = () => templateStamp().slice(0, 16);

/** What a template has besides the migrations: pg-boss's schema and queues. */
async function makeTemplate(database: Database): Promise<void> {
  // Loaded only when a template is made (once per set of migrations), not by every test file.
  const { installJobQueues } = await import('./data-template-make.ts');
  await installJobQueues(database);
}

let pgliteDump: Promise<Blob> | null = null;

/** The PGlite template as a dump, from a file every test process shares (made by the first). */
function pgliteTemplate(): Promise<Blob> {
  pgliteDump ??= (async () => {
    const file = path.join(tmpdir(), `margins-test-db-${stampTag()}.tar`);
    if (!existsSync(file)) {
      const database = await openDatabase({ memory: true });
      try {
        await makeTemplate(database);
        const dump = await database.pglite!.dumpDataDir('none');
        // Written beside, then renamed: a process reading it never sees half a file.
        const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
        writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
        renameSync(partial, file);
      } finally {
        await database.close();
      }
    }
    return new Blob([readFileSync(file)]);
  })();
  return pgliteDump;
}

/** The name of the template database on the server, made by the first process that needs it. */
async function serverTemplate(serverUrl: string): Promise<string> {
  const template = `margins_test_template_${stampTag()}`;
  const exists = await onServer(serverUrl, async (admin) => {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    return found.rowCount === 1;
  });
  if (exists) return template;
  // Made under another name and renamed: a process that copies it never sees it half made.
  const making = `margins_test_making_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, (admin) => admin.query(`CREATE DATABASE ${making}`));
  const database = await openDatabase({ databaseUrl: databaseUrlOf(serverUrl, making) });
  try {
    await makeTemplate(database);
  } finally {
    await database.close();
  }
  await onServer(serverUrl, async (admin) => {
    try {
      await admin.query(`ALTER DATABASE ${making} RENAME TO ${template}`);
    } catch (error) {
      // Another process made it first (42P04: duplicate database): use theirs.
      if ((error as { code?: string }).code !== '42P04') throw error;
      await admin.query(`DROP DATABASE IF EXISTS ${making} WITH (FORCE)`);
    }
  });
  return template;
}

async function onServer<T>(serverUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

function databaseUrlOf(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
