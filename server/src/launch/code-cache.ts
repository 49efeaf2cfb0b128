import type { EventEmitter } from 'node:events';
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

/**
 * Emitted on `process` once the server's start is done (listening, or a worker's jobs running):
 * the moment the code cache holds every function the start compiled.
 */
const START_DONE_EVENT = 'margins:start-done';

/** Called by the server when its start is done: the launcher then writes the code cache. */
export function announceStartDone(): void {
  (process as EventEmitter).emit(START_DONE_EVENT);
}

export interface BundleRun {
  /** The cache file for this build of the bundle (its size and modification time name it). */
  cacheFile: string;
  /** 'used' when V8 took the cache; 'rejected' (another Node or V8 flags) or 'none' re-create it. */
  cache: 'used' | 'rejected' | 'none';
}

/**
 * Runs a CommonJS bundle the way `require` would, with V8's code cache: the first start compiles
 * the bundle and, when its start is done, writes what V8 compiled beside it; every later start
 * reads that instead of parsing and compiling ~8 MB of JavaScript again (issue 11: ~300 ms of a
 * restart). V8 checks the cache against its own version, its flags and the source's length; the
 * file's name adds the bundle's size and modification time, so a rebuild never meets an old cache.
 * The bundle must be ASCII (the build escapes what is not), so it is read as Latin-1: a one-byte string, without
 * the UTF-8 decoding. A cache that cannot be written (a read-only install) only costs the speed.
 */
export function runBundle(bundle: string): BundleRun {
  const { size, mtimeMs } = statSync(bundle);
  const cacheFile = `${bundle}.${size}-${Math.round(mtimeMs)}.v8cache`;
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const source = readFileSync(bundle, 'latin1');
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname) {${source}\n})`,
    {
      filename: bundle,
      cachedData,
      importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    },
  );
  const cache = !cachedData ? 'none' : script.cachedDataRejected ? 'rejected' : 'used';
  if (cache !== 'used') {
    process.once(START_DONE_EVENT, () => {
      const temporary = `${cacheFile}.${process.pid}.tmp`;
      try {
        writeFileSync(temporary, script.createCachedData());
        renameSync(temporary, cacheFile);
      } catch {
        // Read-only: every start compiles, as without a cache.
      }
    });
  }
  const module = { exports: {} };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, createRequire(bundle), module, bundle, path.dirname(bundle));
  return { cacheFile, cache };
}
