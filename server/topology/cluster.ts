// The processes of the topology stage: the built server (server/dist/main.mjs, what `npm start`
// runs) as `--role=web` and `--role=worker` processes on one PostgreSQL database, in production
// mode, each with its own DATA_DIR; started, signalled and killed as an operator's supervisor
// would. Their output (JSON logs) is kept per process for the test to read.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUNDLE = path.join(root, 'server/dist/main.mjs');
/** Shared by every process of a cluster, as production requires (README: scale out). */
const TOPOLOGY_SESSION_SECRET = 'topology-secret-topology-secret-topology';

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A new, empty database on the server of `serverUrl`; returns its URL and how to drop it. */
export async function freshDatabase(
  serverUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `topology_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

type Role = 'web' | 'worker';

/** One server process; `start()` again after it exited starts a new one in its place. */
export class ServerProcess {
  child: ChildProcess | null = null;
  /** Everything it printed, across its lives. */
  output = '';
  private exited: Promise<number | null> = Promise.resolve(null);
  private readonly dataDir = mkdtempSync(path.join(tmpdir(), 'margins-topology-'));

  constructor(
    readonly name: string,
    readonly role: Role,
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  /** Spawns it; resolves once it says it is running (a web process: listening). */
  async start(timeoutMs = 60_000): Promise<void> {
    if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: npm run build -w server`);
    const child = spawn(process.execPath, [BUNDLE, `--role=${this.role}`], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(this.port),
        DATA_DIR: this.dataDir,
        SESSION_SECRET: TOPOLOGY_SESSION_SECRET,
        SEED_DEMO: 'false',
        CONVERSION_WARM_UP: 'false',
        LOG_LEVEL: 'info',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    const started = this.output.length;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${this.name} did not start: ${this.output.slice(started)}`)),
        timeoutMs,
      );
      const onData = (chunk: Buffer) => {
        this.output += chunk.toString();
        if (/Margins (is|worker is) running/.test(this.output.slice(started))) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      void this.exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`${this.name} exited ${code}: ${this.output.slice(started)}`));
      });
    });
  }

  /** SIGTERM (the drain) and its exit code. */
  async stop(): Promise<number | null> {
    this.child?.kill('SIGTERM');
    return this.exited;
  }

  /** kill -9: no drain, no goodbye. */
  async kill(): Promise<void> {
    this.child?.kill('SIGKILL');
    await this.exited;
  }

  /** The JSON lines it logged (production logs). */
  logLines(): Array<Record<string, unknown>> {
    return this.output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  cleanUp(): void {
    this.child?.kill('SIGKILL');
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
