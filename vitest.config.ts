import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // At least two test files at a time, even on two cores (vitest's default there is one):
    // the server files spend much of their time waiting (sockets, SMTP, timers, child
    // processes), so two workers on two cores ran them in 60 % of the time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { test: { name: 'common', include: ['common/src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          include: ['server/src/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      // The production topology (server/topology/): only where a PostgreSQL server is given, as
      // the topology stage of scripts/test-all.sh does; it runs the built server.
      ...(process.env.TOPOLOGY_DATABASE_URL
        ? [
            {
              test: {
                name: 'topology',
                include: ['server/topology/**/*.test.ts'],
                testTimeout: 120_000,
                hookTimeout: 60_000,
                pool: 'forks' as const,
              },
            },
          ]
        : []),
      {
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // react-router-dom (react-admin's) in its ES module form, as the browser build has
          // it: its CommonJS form would load a second react-router with its own router context.
          alias: {
            'react-router-dom': fileURLToPath(
              new URL('./node_modules/react-router-dom/dist/index.mjs', import.meta.url),
            ),
          },
          server: {
            deps: { inline: [/react-router-dom/, /ra-core/, /react-admin/, /ra-ui-materialui/] },
          },
        },
      },
    ],
  },
});
