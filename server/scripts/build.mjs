// Builds the server for `npm start`: the TypeScript sources bundled into plain JavaScript.
// - dist/server.cjs: the server (src/main.ts) with its npm packages, as one CommonJS script that
//   dist/main.mjs (src/launch/main.ts) runs with V8's code cache (src/launch/code-cache.ts). One
//   file and a code cache instead of ~660 module files compiled at every start: a restart on
//   existing data ~1.9 → ~1.4 s (issue 11). Packages that find files beside their own code, or
//   load native or WebAssembly code, stay outside (EXTERNAL) and load from node_modules.
// - dist/convert-worker.mjs, dist/docx-export-worker.mjs (the worker threads) and
//   dist/data-template.mjs: ES modules of our own code, their packages loaded from node_modules.
// Running bundles with node, rather than the sources through tsx, takes ~75 MB less memory in
// the server and ~30 MB less in each conversion thread, and starts faster.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { packagesOutside } from './packages-outside.mjs';

const root = new URL('..', import.meta.url).pathname;
const EXTERNAL = [
  '@electric-sql/pglite', // its WebAssembly and data files, found from its own URL
  '@node-rs/argon2', // native
  'piscina', // starts threads on its own worker.js
  // Loaded on first use only, or only on a PostgreSQL server: not worth compiling into the bundle.
  'pg-native',
  '@socket.io/postgres-adapter',
  'drizzle-orm/node-postgres',
  'drizzle-orm/node-postgres/migrator',
  'exceljs',
  'mammoth',
];

/**
 * `pg` (node-postgres) loaded when first used, not at start: pg-boss and our PostgreSQL-only
 * modules import it at their top, but on the embedded database nothing uses it, and loading it
 * costs ~50 ms of a start (on Node 20 its runtime check builds a fetch Response, which loads
 * Node's fetch). Every import of it gets an object that loads it on the first property read.
 */
const pgOnFirstUse = {
  name: 'pg-on-first-use',
  setup(builder) {
    builder.onResolve({ filter: /^pg$/ }, (args) =>
      args.namespace === 'pg-on-first-use'
        ? { path: 'pg', external: true }
        : { path: 'pg', namespace: 'pg-on-first-use' },
    );
    builder.onLoad({ filter: /^pg$/, namespace: 'pg-on-first-use' }, () => ({
      contents:
        'let pg;\nmodule.exports = new Proxy({}, { get: (_, key) => (pg ??= require("pg"))[key] });\n',
      loader: 'js',
    }));
  },
};

const started = performance.now();
const common = { absWorkingDir: root, outdir: 'dist', bundle: true, platform: 'node' };
await Promise.all([
  build({
    ...common,
    entryPoints: { server: 'src/main.ts' },
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    external: EXTERNAL,
    plugins: [pgOnFirstUse],
    // import() of a package outside becomes require(): a script run by vm (the launcher) has no
    // module loader of its own for import() without an experimental flag.
    supported: { 'dynamic-import': false },
    // Our modules find files from their own URL (paths.ts): in CommonJS, the bundle's.
    define: { 'import.meta.url': 'import_meta_url' },
    banner: { js: 'const import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
  }),
  build({
    ...common,
    entryPoints: {
      main: 'src/launch/main.ts',
      'convert-worker': 'src/jobs/convert-worker.ts',
      'docx-export-worker': 'src/modules/exports/docx-worker.ts',
      'data-template': 'src/db/data-template-cli.ts',
    },
    outExtension: { '.js': '.mjs' },
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [packagesOutside],
  }),
]);
asciiOnly(`${root}dist/server.cjs`);
for (const file of readdirSync(`${root}dist`)) {
  if (file.endsWith('.v8cache')) rmSync(`${root}dist/${file}`);
}
console.log(`server built into server/dist in ${Math.round(performance.now() - started)} ms`);

/**
 * The launcher reads the bundle as Latin-1 (one byte a character, no UTF-8 decoding), so it must be
 * ASCII. esbuild escapes strings and names but leaves a few characters in comments and regular
 * expressions: each is written as its \u escape, which means the same character in both.
 */
function asciiOnly(file) {
  const source = readFileSync(file, 'utf8');
  const escaped = source.replace(
    /[^\0-\x7f]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  if (escaped !== source) writeFileSync(file, escaped);
}

// The ready embedded database a first start copies (src/db/data-template.ts): made once, and
// again only when a migration or the PGlite / pg-boss version changes.
execFileSync(process.execPath, ['dist/data-template.mjs'], { cwd: root, stdio: 'inherit' });
