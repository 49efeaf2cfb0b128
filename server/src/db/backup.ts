import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { acquireDataDirLock } from './lock.ts';

// Backups of the embedded database: PGlite's own dump of its data folder (a tar.gz of the
// PostgreSQL files, uploaded originals and images included: they are rows of `media`). The
// server must be stopped: the folder belongs to one process (the lock says which).

/** The PGlite folder inside DATA_DIR (as openDatabase uses it). */
const pgliteDir = (dataDir: string) => path.join(dataDir, 'pglite');

/** Writes a backup of DATA_DIR's database to `file` (a tar.gz); its size in bytes. */
export async function backupDatabase(dataDir: string, file: string): Promise<number> {
  const source = pgliteDir(dataDir);
  if (!existsSync(path.join(source, 'PG_VERSION'))) {
    throw new Error(`There is no embedded database in ${path.resolve(dataDir)} to back up.`);
  }
  const release = await acquireDataDirLock(dataDir);
  try {
    const pglite = await PGlite.create(source);
    let dump: Blob;
    try {
      dump = await pglite.dumpDataDir('gzip');
    } finally {
      await pglite.close();
    }
    const bytes = new Uint8Array(await dump.arrayBuffer());
    writeAtomically(file, bytes);
    return bytes.byteLength;
  } finally {
    await release();
  }
}

/**
 * Replaces DATA_DIR's database by the backup in `file`. The backup is opened in a folder of its
 * own first; only once it opens is it moved in place, and the database it replaces is kept
 * beside it (its folder is returned) rather than deleted.
 */
export async function restoreDatabase(
  dataDir: string,
  file: string,
): Promise<{ replacedBy: string; keptAt: string | null }> {
  const dump = new Blob([await readFile(file)]);
  const release = await acquireDataDirLock(dataDir);
  try {
    const target = pgliteDir(dataDir);
    const staging = `${target}.restoring`;
    rmSync(staging, { recursive: true, force: true });
    try {
      const pglite = await PGlite.create(staging, { loadDataDir: dump });
      await pglite.query('select 1');
      await pglite.close();
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      throw new Error(`${file} is not a backup of the embedded database: ${String(error)}`, {
        cause: error,
      });
    }
    let keptAt: string | null = null;
    if (existsSync(target)) {
      keptAt = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      renameSync(target, keptAt);
    }
    renameSync(staging, target);
    return { replacedBy: file, keptAt };
  } finally {
    await release();
  }
}

/** Writes a file so that it is either all there or not at all: a temporary file, synced, renamed. */
function writeAtomically(file: string, bytes: Uint8Array): void {
  const temporary = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${randomBytes(4).toString('hex')}.tmp`,
  );
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    let written = 0;
    while (written < bytes.byteLength) {
      written += writeSync(fd, bytes, written, bytes.byteLength - written);
    }
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(temporary, file);
}
