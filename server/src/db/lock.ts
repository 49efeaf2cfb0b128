import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import type { Socket } from 'node:net';
import path from 'node:path';

/** The embedded database folder is open in another process (or already in this one). */
export class DatabaseLockedError extends Error {}

/** Exit code our flock child uses for "someone else holds the lock". */
const LOCK_HELD_EXIT_CODE = 75;
/**
 * How long a start waits for the lock: after a `kill -9` the lock holder of the dead process
 * needs a moment to notice and exit, and a restart must not be refused for that.
 */
const LOCK_WAIT_SECONDS = 2;

/** Lock files this process holds: a second open in the same process is refused at once. */
const heldLocks = new Set<string>();

/** Releases a lock taken by {@link acquireDataDirLock}. */
export type ReleaseLock = () => Promise<void>;

/**
 * Locks `dataDir/db.lock` for this process, so that only one process opens the embedded
 * database. The lock is an advisory flock(2) held by a tiny `flock(1)` child that lives as long
 * as its standard input (a pipe from us) is open: when this process dies, even by `kill -9`,
 * the pipe closes, the child exits and the operating system drops the lock. So a crash never
 * blocks the next start, whatever process now has the pid written in the file (PID 1 in a
 * container). Node has no flock of its own; without util-linux's `flock(1)` (macOS, BusyBox)
 * the pid file alone decides, as before.
 */
export async function acquireDataDirLock(dataDir: string): Promise<ReleaseLock> {
  const lockFile = path.resolve(dataDir, 'db.lock');
  if (heldLocks.has(lockFile)) throw inUse(dataDir, process.pid);
  const holder = await spawnLockHolder(lockFile);
  if (holder === 'no-flock') return acquirePidFileLock(dataDir, lockFile);
  if (holder === 'held') throw inUse(dataDir, readHolderPid(lockFile));
  // The pid is only there to name the holder in the message of a refused start.
  writeFileSync(lockFile, String(process.pid));
  heldLocks.add(lockFile);
  const closeOnExit = () => holder.stdin.destroy();
  process.once('exit', closeOnExit);
  return async () => {
    if (!heldLocks.delete(lockFile)) return;
    process.off('exit', closeOnExit);
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    // Waiting for it must keep this process alive (a short command has nothing else to wait on).
    holder.ref();
    holder.stdin.destroy();
    if (holder.exitCode === null && holder.signalCode === null) await exited;
  };
}

/** Starts `flock` on the file; resolves once it holds the lock, or says why it cannot. */
function spawnLockHolder(
  lockFile: string,
): Promise<ChildProcessWithoutNullStreams | 'held' | 'no-flock'> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'flock',
      [
        '--wait',
        String(LOCK_WAIT_SECONDS),
        '--conflict-exit-code',
        String(LOCK_HELD_EXIT_CODE),
        lockFile,
        // /bin/sh named, not flock's `-c` (which runs $SHELL): bash whose standard input is a
        // socket (Node's pipes are socketpairs) takes itself for a remote shell and reads
        // ~/.bashrc first — half a second of every start on a machine with a busy one.
        '/bin/sh',
        '-c',
        // `cat` keeps the lock until its standard input, our pipe, is closed.
        'echo locked && exec cat',
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    child.stderr.resume();
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') resolve('no-flock');
      else reject(error);
    });
    // Any other end is a flock(1) without these options (BusyBox) or one that cannot open the
    // file: the pid file decides then (and reports a file it cannot open).
    child.once('exit', (code) => resolve(code === LOCK_HELD_EXIT_CODE ? 'held' : 'no-flock'));
    child.stdout.once('data', () => {
      child.removeAllListeners('exit');
      child.stdout.destroy();
      child.stderr.destroy();
      // The holder must not keep this process alive (nor its end wait for it).
      child.unref();
      (child.stdin as unknown as Socket).unref();
      resolve(child);
    });
  });
}

function inUse(dataDir: string, holder: number | undefined): DatabaseLockedError {
  const who = holder ? `process ${holder}` : 'another process';
  return new DatabaseLockedError(
    `The embedded database in ${path.resolve(dataDir)} is in use by ${who}. ` +
      'Stop that process, or set DATA_DIR to another folder, or DATABASE_URL to a PostgreSQL server.',
  );
}

function readHolderPid(lockFile: string): number | undefined {
  try {
    return Number(readFileSync(lockFile, 'utf8')) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where there is no flock(1): a lock file created exclusively, holding our pid; a lock whose
 * process is gone is taken over. A crash whose pid is reused blocks the next start here.
 */
function acquirePidFileLock(dataDir: string, lockFile: string): ReleaseLock {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      heldLocks.add(lockFile);
      const release = () => {
        if (!heldLocks.delete(lockFile)) return;
        rmSync(lockFile, { force: true });
        process.off('exit', release);
      };
      process.once('exit', release);
      return async () => release();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolderPid(lockFile);
      if (holder && holder !== process.pid && isAlive(holder)) throw inUse(dataDir, holder);
      rmSync(lockFile, { force: true });
    }
  }
  throw new DatabaseLockedError(`Could not lock ${lockFile}.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
