import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { CSRF_COOKIE, CSRF_HEADER } from '@margins/common';
import { buildApp } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import { openTestDatabase } from '../db/test-db.ts';
import type { Database } from '../db/index.ts';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  database: Database;
  close(): Promise<void>;
}

/**
 * A real app on a fresh, migrated database (PGlite, or PostgreSQL with TEST_DATABASE_URL), or on
 * the one `open` gives (a benchmark's data dir on disk, as the server runs it).
 */
export async function createTestApp(
  overrides: Partial<Config> = {},
  open: () => Promise<Database> = openTestDatabase,
): Promise<TestApp> {
  const config: Config = {
    ...loadConfig({
      NODE_ENV: 'test',
      SESSION_SECRET: 'test-secret-test-secret-test-secret-123',
      LOG_LEVEL: 'silent',
      DATA_DIR: '/tmp/margins-test-unused',
    }),
    ...overrides,
  };
  const database = await open();
  const app = await buildApp(config, database);
  await app.ready();
  return {
    app,
    ctx: app.ctx,
    database,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/**
 * A browser-like client over app.inject: keeps cookies, sends the CSRF header like the
 * web client does (unless told not to), and JSON by default.
 */
export class TestClient {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly ip = '127.0.0.1',
  ) {}

  get csrfToken(): string | undefined {
    return this.cookies.get(CSRF_COOKIE);
  }

  async request(
    options: InjectOptions & { csrf?: boolean; json?: unknown },
  ): Promise<LightMyRequestResponse> {
    if (!this.csrfToken) await this.prime();
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(options.headers as Record<string, string> | undefined),
    };
    if (options.csrf !== false && this.csrfToken) headers[CSRF_HEADER] = this.csrfToken;
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (cookie) headers.cookie = cookie;
    const { csrf: _csrf, json, ...rest } = options;
    const response = await this.app.inject({
      remoteAddress: this.ip,
      ...rest,
      headers,
      ...(json !== undefined ? { payload: json as object } : {}),
    });
    this.store(response);
    return response;
  }

  get = (url: string, options: Partial<InjectOptions> & { csrf?: boolean } = {}) =>
    this.request({ ...options, method: 'GET', url });
  post = (url: string, json?: unknown, options: Partial<InjectOptions> & { csrf?: boolean } = {}) =>
    this.request({ ...options, method: 'POST', url, json });
  put = (url: string, json?: unknown, options: Partial<InjectOptions> & { csrf?: boolean } = {}) =>
    this.request({ ...options, method: 'PUT', url, json });
  delete = (url: string, options: Partial<InjectOptions> & { csrf?: boolean } = {}) =>
    this.request({ ...options, method: 'DELETE', url });

  private async prime(): Promise<void> {
    const response = await this.app.inject({
      method: 'GET',
      url: '/healthz',
      remoteAddress: this.ip,
    });
    this.store(response);
  }

  private store(response: LightMyRequestResponse): void {
    for (const cookie of response.cookies) {
      if (cookie.value === '' || (cookie.expires && cookie.expires.getTime() < Date.now())) {
        this.cookies.delete(cookie.name);
      } else {
        this.cookies.set(cookie.name, cookie.value);
      }
    }
  }
}
