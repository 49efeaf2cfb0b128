/**
 * `npm run check:cycles`: the server's layers point one way. A "module" is a folder of
 * server/src/modules, or any other top-level folder or file of server/src (db, jobs, realtime,
 * context.ts…).
 *
 * - No import circle between modules (type-only imports count: a circle that leaves a module and
 *   comes back is not allowed).
 * - No runtime import circle between the files of one module folder (type-only imports do not
 *   count: they are gone once compiled). dependency-cruiser reports one circle per import, the
 *   first it finds, which may pass through a type-only import while a runtime one exists too;
 *   so `check:cycles` cruises a second time without type-only imports
 *   (.dependency-cruiser-runtime.cjs), where every circle left is a runtime one.
 * - The socket layer (realtime/) and the event infrastructure (events/) import no route file;
 *   events/ imports no module at all (not even its types): modules register with it (app.ts).
 */
const ROUTE_FILE = '(^|/)(routes|[^/]+-routes)\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-circle-between-modules',
      severity: 'error',
      comment: 'Modules must not import each other both ways (directly or through others).',
      from: { path: '^server/src/(modules/[^/]+|[^/]+)' },
      to: { circular: true, viaSomeNot: '^server/src/$1' },
    },
    {
      name: 'no-runtime-circle-in-module',
      severity: 'error',
      comment:
        'The files of one module must not import each other both ways at run time: move what both need into a third file.',
      from: { path: '^server/src/(modules/[^/]+|[^/]+)/' },
      to: {
        circular: true,
        viaOnly: { path: '^server/src/$1/', dependencyTypesNot: ['type-only'] },
      },
    },
    {
      name: 'no-route-file-below-realtime-or-events',
      severity: 'error',
      comment:
        'Sockets and events use services and presenters, never a route file: move what both need out of it.',
      from: { path: '^server/src/(realtime|events)/' },
      to: { path: ROUTE_FILE },
    },
    {
      name: 'events-import-no-module',
      severity: 'error',
      comment:
        'The event infrastructure knows no domain: a module registers with it when the app is built (app.ts).',
      from: { path: '^server/src/events/' },
      to: { path: '^server/src/modules/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
  },
};
