import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { announceStartDone, runBundle, type BundleRun } from './code-cache.ts';

declare global {
  var codeCacheFixture: { dirname: string; joined: string } | undefined;
}

const codeCache = pathToFileURL(
  path.join(path.dirname(fileURLToPath(import.meta.url)), 'code-cache.ts'),
);

/** A bundle as the build writes it: CommonJS, using require, __dirname and module.exports. */
function writeBundle(file: string, extra = ''): void {
  writeFileSync(
    file,
    `const path = require('node:path');
     function greet(name) { return 'hello ' + name; }
     module.exports = { greet };
     globalThis.codeCacheFixture = { dirname: __dirname, joined: path.join(__dirname, greet('x')) };${extra}\n`,
  );
}

/**
 * Launches the bundle in a process of its own, as `npm start` does, its start done at once. (In
 * one process V8 keeps what it compiled in memory and would not even look at the cache.)
 */
function launch(bundle: string): BundleRun & { fixture: unknown } {
  const script = `import { announceStartDone, runBundle } from ${JSON.stringify(codeCache.href)};
    const run = runBundle(${JSON.stringify(bundle)});
    announceStartDone();
    console.log(JSON.stringify({ ...run, fixture: globalThis.codeCacheFixture }));`;
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '--eval', script],
    { encoding: 'utf8' },
  );
  expect(child.stderr).toBe('');
  return JSON.parse(child.stdout) as BundleRun & { fixture: unknown };
}

describe('runBundle: the built server run with V8 code cache', () => {
  let folder: string;
  let bundle: string;

  beforeEach(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'margins-code-cache-'));
    bundle = path.join(folder, 'server.cjs');
    process.removeAllListeners('margins:start-done');
  });
  afterEach(() => {
    process.removeAllListeners('margins:start-done');
    rmSync(folder, { recursive: true, force: true });
  });

  it('runs the bundle as CommonJS and writes the cache only once the start is done', () => {
    writeBundle(bundle);
    const run = runBundle(bundle);
    expect(run.cache).toBe('none');
    expect(globalThis.codeCacheFixture).toEqual({
      dirname: folder,
      joined: path.join(folder, 'hello x'),
    });
    // Not before: the cache would miss what the start compiles.
    expect(existsSync(run.cacheFile)).toBe(false);
    announceStartDone();
    expect(existsSync(run.cacheFile)).toBe(true);
    expect(readdirSync(folder).filter((file) => file.endsWith('.tmp'))).toEqual([]);
  });

  it('uses the cache at the next start, never the cache of another build, and replaces a bad one', () => {
    writeBundle(bundle, ' // a');
    const first = launch(bundle);
    expect(first.cache).toBe('none');
    const second = launch(bundle);
    expect(second).toEqual({ ...first, cache: 'used' });
    expect(second.fixture).toEqual({ dirname: folder, joined: path.join(folder, 'hello x') });

    // A rebuild: the same length, other code, a later modification time.
    writeBundle(bundle, ' // b');
    utimesSync(bundle, new Date(), new Date(Date.now() + 5_000));
    const rebuilt = launch(bundle);
    expect(rebuilt.cacheFile).not.toBe(first.cacheFile);
    expect(rebuilt.cache).toBe('none');

    // A cache V8 does not take (another Node, other flags, a damaged file) is written again.
    writeFileSync(rebuilt.cacheFile, 'not a code cache');
    expect(launch(bundle).cache).toBe('rejected');
    expect(launch(bundle).cache).toBe('used');
  });

  it('runs the bundle when the cache cannot be written', () => {
    writeBundle(bundle);
    const run = runBundle(bundle);
    rmSync(folder, { recursive: true, force: true });
    expect(() => announceStartDone()).not.toThrow();
    expect(run.cache).toBe('none');
    expect(globalThis.codeCacheFixture?.joined).toBe(path.join(folder, 'hello x'));
  });
});
