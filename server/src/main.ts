import { buildApp } from './app.ts';
import { ConfigError, loadConfig, mailBaseLine, roleFromArguments, type Config } from './config.ts';
import { DatabaseLockedError, openDatabase } from './db/index.ts';
import { demoSeedSettled, seedDemoDataInBackground } from './seed/background.ts';
import { announceStartDone } from './launch/code-cache.ts';
import { drainer } from './launch/drain.ts';
import { startFailureLine } from './launch/start-failure.ts';
import { startPhase } from './start-timing.ts';

/** Starts the server: read config, open and migrate the database, listen, then seed. */
async function main(): Promise<void> {
  startPhase('modules-loaded');
  let config: Config;
  try {
    config = loadConfig();
    config = { ...config, role: roleFromArguments(process.argv.slice(2), config) };
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  let database;
  try {
    database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  } catch (error) {
    if (error instanceof DatabaseLockedError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  startPhase('database-ready');
  const app = await buildApp(config, database);
  startPhase('app-built');
  const drain = drainer(
    {
      startDraining: () => app.ctx.lifecycle.startDraining(),
      closeApp: async () => {
        // A half seed stays half: it finishes first (seed/background.ts).
        await demoSeedSettled();
        await app.close();
      },
      closeDatabase: () => database.close(),
      log: (message) => app.log.info(message),
      exit: (code) => process.exit(code),
    },
    config.drain,
  );
  process.on('SIGINT', () => void drain('SIGINT'));
  process.on('SIGTERM', () => void drain('SIGTERM'));
  if (config.role === 'worker') {
    // Its probes and metrics only (app.ts keeps everything else from a worker's listener).
    if (config.metricsPort) await app.listen({ port: config.metricsPort, host: config.host });
    console.log(`Margins worker is running its jobs (database: ${database.kind})`);
    console.log(mailBaseLine(config));
  } else {
    await app.listen({ port: config.port, host: config.host });
    startPhase('listening');
    const jobs = config.role === 'web' ? ', no jobs: run a --role=worker process' : '';
    console.log(`Margins is running on ${config.publicUrl} (database: ${database.kind}${jobs})`);
    console.log(mailBaseLine(config));
  }
  announceStartDone();
  // After the server answers: nothing at start waits for the demo data (seed/background.ts).
  if (config.seedDemo) void seedDemoDataInBackground(app.ctx);
}

// Not a top-level await: the bundle (dist/server.cjs) is CommonJS, for V8's code cache.
main().catch((error: unknown) => {
  console.error(startFailureLine(error));
  // The stack only when asked for: an operator reads the line, a developer may want the rest.
  if (/^(debug|trace)$/.test(process.env.LOG_LEVEL ?? '')) console.error(error);
  process.exit(1);
});
