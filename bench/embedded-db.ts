// The embedded database as the server runs it, for benchmarks: PGlite in a data dir on disk, not
// in memory (an in-memory PGlite keeps its files in JavaScript arrays and copies its growing WAL
// file: a cost the server never pays). Closing it removes the directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../server/src/db/index.ts';

export async function openEmbeddedOnDisk(name: string): Promise<Database> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `margins-${name}-`));
  const database = await openDatabase({ dataDir });
  return {
    ...database,
    close: async () => {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The benchmark's database: embedded on disk, or, with BENCH_DATABASE_URL (a PostgreSQL server),
 * a database created there for the run; closing it drops it.
 */
export async function openBenchDatabase(name: string): Promise<Database> {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) return openEmbeddedOnDisk(name);
  const { default: pg } = await import('pg');
  const databaseName = `bench_${name.replaceAll('-', '_')}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  return {
    ...database,
    close: async () => {
      await database.close();
      await admin.query(`DROP DATABASE ${databaseName} WITH (FORCE)`);
      await admin.end();
    },
  };
}
