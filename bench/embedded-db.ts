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
