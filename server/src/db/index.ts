import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type pg from 'pg';
import { migrationsFolder } from '../paths.ts';
import { startPhase } from '../start-timing.ts';
import { copyDataTemplate } from './data-template.ts';
import { acquireDataDirLock, DatabaseLockedError, type ReleaseLock } from './lock.ts';
import { endSessionPools } from './prepared.ts';
import { START_LOCKS, underStartLock } from './start-lock.ts';
import { PGLITE_V8_FLAGS } from './v8-flags.ts';
import * as schema from './schema.ts';

export { schema };
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle; services take `Db | Tx` via `Executor`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The PGlite instance when embedded (pg-boss and tests use it). */
  pglite: PGlite | null;
  /** The pool when on a PostgreSQL server. */
  pool: pg.Pool | null;
  close(): Promise<void>;
}

export { DatabaseLockedError };

const BYTEA_OID = 17;
/**
 * PGlite's own bytea conversion walks byte by byte in JavaScript (~100 ms per MB on the event
 * loop). Bytes returned as they are go to PostgreSQL as a binary parameter, copied once (its
 * protocol writer sends any ArrayBuffer view so, although the type says string): a 1.6 MB file
 * takes 18 ms to store instead of 30 ms as base64 text. Anything else goes as hex, made natively.
 */
function serializeBytea(value: unknown): string {
  if (ArrayBuffer.isView(value)) return value as unknown as string; // sent as binary, see above
  return '\\x' + Buffer.from(value as string).toString('hex');
}
const BYTEA_SERIALIZERS = { [BYTEA_OID]: serializeBytea };
const BYTEA_PARSERS = {
  [BYTEA_OID]: (value: string) => Buffer.from(value.slice(2), 'hex'),
};

/**
 * PGlite runs PostgreSQL inside this process, so its settings are this process's memory. The
 * buffer cache (shared_buffers, 128 MB by default) lives in PGlite's WebAssembly memory, which
 * never shrinks: it grew the server by ~100 MB as pages were read. The operating system caches
 * the data files as well, so a small buffer cache costs little here. PGlite touches the whole
 * cache as it starts (1 MB instead of 16 MB: 17 MB less RSS from the first query on); 8 MB
 * answered Discover-like (full text, trigram), comments-list and reader queries on the seeded
 * demo database as fast as 16 MB and 4 MB (0.66 / 0.80 / 1.8 ms against 0.72 / 0.80 / 1.8 ms,
 * 200 runs each, measured for issue 11). A database much larger than the cache reads more
 * through the operating system's cache.
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=8MB'];

/** Set before PGlite's module is compiled (v8-flags.ts); the built server sets them at launch. */
function compileWasmWithoutTierUp(): void {
  setFlagsFromString(PGLITE_V8_FLAGS);
}

/** Opens the embedded database in dataDir (locked to one process) or PostgreSQL at url, and migrates it. */
export async function openDatabase(options: {
  dataDir?: string;
  databaseUrl?: string;
  memory?: boolean;
  /** With `memory`: start from this dump of a data folder (PGlite's dumpDataDir) instead of initdb. */
  loadDataDir?: Blob;
}): Promise<Database> {
  if (options.databaseUrl) {
    // Loaded only for a PostgreSQL server: the embedded database's start does not pay for them.
    const [{ default: pgModule }, { drizzle: drizzlePostgres }, { migrate: migratePostgres }] =
      await Promise.all([
        import('pg'),
        import('drizzle-orm/node-postgres'),
        import('drizzle-orm/node-postgres/migrator'),
      ]);
    const pool = new pgModule.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle client the server ends (restart, DROP DATABASE … FORCE) must not crash us.
    pool.on('error', () => undefined);
    const db = drizzlePostgres(pool, { schema }) as unknown as Db;
    try {
      await underStartLock({ pool, pglite: null }, START_LOCKS.schema, () =>
        migratePostgres(db as Parameters<typeof migratePostgres>[0], { migrationsFolder }),
      );
    } catch (error) {
      await pool.end();
      throw error;
    }
    const close = async () => {
      await endSessionPools(pool);
      await pool.end();
    };
    return { db, kind: 'postgres', pglite: null, pool, close };
  }
  let releaseLock: ReleaseLock = async () => {};
  let dataPath: string | undefined;
  if (!options.memory) {
    const dataDir = options.dataDir ?? './data';
    mkdirSync(dataDir, { recursive: true });
    releaseLock = await acquireDataDirLock(dataDir);
    dataPath = path.join(dataDir, 'pglite');
  }
  try {
    if (dataPath) await initialiseDataDir(dataPath);
    startPhase('pglite-initdb');
    compileWasmWithoutTierUp();
    const pglite = await PGlite.create(dataPath, {
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
      serializers: BYTEA_SERIALIZERS,
      parsers: BYTEA_PARSERS,
      startParams: PGLITE_START_PARAMS,
      // Discover's search (migration 0005); PostgreSQL servers have them as contrib modules.
      extensions: { fuzzystrmatch, pg_trgm, unaccent },
    });
    startPhase('pglite-open');
    const db = drizzlePglite(pglite, { schema }) as unknown as Db;
    await migratePglite(db as Parameters<typeof migratePglite>[0], { migrationsFolder });
    startPhase('migrations');
    return {
      db,
      kind: 'pglite',
      pglite,
      pool: null,
      close: async () => {
        await pglite.close();
        await releaseLock();
      },
    };
  } catch (error) {
    await releaseLock();
    throw error;
  }
}

const execFileAsync = promisify(execFile);

/**
 * Creates a new embedded database (initdb) in a child process. initdb runs in a second
 * WebAssembly instance that takes ~500 MB; in this process that memory would stay until a full
 * garbage collection, and would count in the server's peak for good.
 */
async function initialiseDataDir(dataPath: string): Promise<void> {
  if (existsSync(path.join(dataPath, 'PG_VERSION'))) return;
  // The build's ready database (migrated, pg-boss installed): a copy instead of initdb.
  if (copyDataTemplate(dataPath)) return;
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const script = `(async () => {
    const { PGlite } = require(${JSON.stringify(pglite)});
    const db = await PGlite.create(process.argv[1]);
    await db.close();
  })().catch((error) => { console.error(error); process.exit(1); });`;
  try {
    await execFileAsync(process.execPath, ['-e', script, dataPath], { timeout: 120_000 });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`Could not create the embedded database in ${dataPath}: ${stderr || error}`, {
      cause: error,
    });
  }
}
