/**
 * `npm run check:cycles`: no import circle between server modules. A "module" is a folder of
 * server/src/modules, or any other top-level folder or file of server/src (db, jobs, realtime,
 * context.ts…). A circle inside one module (docx-reader ↔ docx-body) is that module's business;
 * one that leaves a module and comes back is not allowed.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circle-between-modules',
      severity: 'error',
      comment: 'Modules must not import each other both ways (directly or through others).',
      from: { path: '^server/src/(modules/[^/]+|[^/]+)' },
      to: { circular: true, viaSomeNot: '^server/src/$1' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
  },
};
