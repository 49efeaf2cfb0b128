// `npm run backup [-- FILE]` and `npm run restore -- FILE`: the embedded database of DATA_DIR
// (default ./data of the server workspace, where `npm start` keeps it). Run with the server
// stopped. On PostgreSQL (DATABASE_URL) use pg_dump / pg_restore (README).
import path from 'node:path';
import { backupDatabase, restoreDatabase } from './backup.ts';
import { DatabaseLockedError } from './lock.ts';

/** A path the operator typed, from where they typed it (npm runs us in the server folder). */
const fromCaller = (file: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), file);

async function main(): Promise<number> {
  const [command, file] = process.argv.slice(2);
  const dataDir = process.env.DATA_DIR || './data';
  if (process.env.DATABASE_URL) {
    console.error(
      'DATABASE_URL is set: back up PostgreSQL with pg_dump and restore with pg_restore (see README).',
    );
    return 1;
  }
  if (command === 'backup') {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const target = fromCaller(file ?? `margins-backup-${stamp}.tar.gz`);
    const bytes = await backupDatabase(dataDir, target);
    console.log(`Backed up ${path.resolve(dataDir)} to ${target} (${bytes} bytes).`);
    return 0;
  }
  if (command === 'restore' && file) {
    const { keptAt } = await restoreDatabase(dataDir, fromCaller(file));
    console.log(`Restored ${path.resolve(dataDir)} from ${fromCaller(file)}.`);
    if (keptAt) console.log(`The database it replaced is kept in ${keptAt}: delete it when sure.`);
    return 0;
  }
  console.error('Usage: npm run backup [-- FILE]   |   npm run restore -- FILE');
  return 1;
}

// exitCode, not exit(): output to a pipe must be flushed first.
main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // A running server (the lock) or a bad file: one readable line, no stack.
    console.error(error instanceof DatabaseLockedError ? error.message : String(error));
    process.exitCode = 1;
  },
);
