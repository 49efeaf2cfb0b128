// The entry `npm start` runs (dist/main.mjs): the server's bundle (dist/server.cjs, from
// src/main.ts) run with V8's code cache (code-cache.ts).
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { PGLITE_V8_FLAGS } from '../db/v8-flags.ts';
import { runBundle } from './code-cache.ts';

// Before anything is compiled: V8 accepts a code cache only under the flags it was made with,
// and opening the embedded database sets these (db/index.ts), after the bundle is compiled.
setFlagsFromString(PGLITE_V8_FLAGS);
const { cache, cacheFile } = runBundle(path.join(import.meta.dirname, 'server.cjs'));
if (process.env.START_TIMING === '1') process.stderr.write(`start-cache ${cache} ${cacheFile}\n`);
