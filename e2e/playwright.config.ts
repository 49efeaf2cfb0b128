import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices, type ReporterDescription } from '@playwright/test';

/**
 * End-to-end tests: Debian's Chromium (/usr/bin/chromium, never a downloaded browser)
 * against the real server, started here on a fresh embedded database.
 *   npx playwright test -c e2e/playwright.config.ts
 * E2E_PORT changes the port (3210); E2E_JSON_REPORT adds a JSON report (scripts/test-all.sh).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.E2E_PORT ?? 3210);
export const baseURL = `http://127.0.0.1:${port}`;
const CI = Boolean(process.env.CI);

process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';
// The config is read by the runner and again by each worker; only the runner (which the
// workers inherit the variable from) makes the data folder, and removes it at exit.
if (!process.env.E2E_DATA_DIR) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'margins-e2e-'));
  process.env.E2E_DATA_DIR = dataDir;
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
}

const reporter: ReporterDescription[] = [['list']];
if (process.env.E2E_JSON_REPORT)
  reporter.push(['json', { outputFile: process.env.E2E_JSON_REPORT }]);

const serverEnv: Record<string, string> = {};
for (const [key, value] of Object.entries(process.env)) {
  if (value !== undefined) serverEnv[key] = value;
}
for (const key of ['DATABASE_URL', 'SMTP_URL', 'TEST_DATABASE_URL', 'STRIPE_SECRET_KEY']) {
  delete serverEnv[key];
}
Object.assign(serverEnv, {
  NODE_ENV: 'development', // the development mailbox at /dev/mail
  PORT: String(port),
  HOST: '127.0.0.1',
  PUBLIC_URL: baseURL,
  DATA_DIR: process.env.E2E_DATA_DIR,
  SEED_DEMO: 'true', // the genre catalogue (and a few demo people)
  INVITES_ENABLED: 'false',
  // Every spec signs up from 127.0.0.1; the limit itself is tested in the server suite.
  SIGNUP_LIMIT_PER_HOUR: '1000',
  LOG_LEVEL: 'warn',
});

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: path.join(root, 'test-results', 'e2e'),
  fullyParallel: false,
  forbidOnly: CI,
  workers: CI ? 1 : 2,
  retries: CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter,
  globalSetup: './support/demo-data.ts',
  use: {
    baseURL,
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        // Nothing but this machine: every other host name fails to resolve.
        '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: {
    // The server as `npm start` runs it: the built bundle under plain node.
    command: 'node server/scripts/build.mjs && node server/dist/main.mjs',
    cwd: root,
    url: `${baseURL}/healthz`,
    env: serverEnv,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe', // warnings and errors only (LOG_LEVEL=warn), and the start lines
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
  },
});
