import { sql } from 'drizzle-orm';
import { HEALTH_DB_FRESH_MS, HEALTH_DB_STALE_MS, HEALTH_DB_TIMEOUT_MS } from '@margins/common';
import type { Db } from '../../db/index.ts';

/**
 * Whether the database answers, for /healthz: `select 1` at most once per HEALTH_DB_FRESH_MS
 * whatever the rate of /healthz, shared by the requests that arrive meanwhile. On PGlite every
 * statement waits its turn behind the others (one connection), so probing per request would
 * time the queue, not the server; a recent answer (HEALTH_DB_STALE_MS) is given at once while
 * the next probe runs.
 */
export class DatabaseProbe {
  private last: { ok: boolean; at: number } | null = null;
  private running: Promise<boolean> | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: () => number = Date.now,
  ) {}

  /** True when the database answered recently (or answers now, within the timeout). */
  async ok(): Promise<boolean> {
    const last = this.last;
    const age = last ? this.clock() - last.at : Infinity;
    if (last && age < HEALTH_DB_FRESH_MS) return last.ok;
    const probe = this.probe();
    if (last && age < HEALTH_DB_STALE_MS) return last.ok;
    return probe;
  }

  private probe(): Promise<boolean> {
    this.running ??= this.ask().then((ok) => {
      this.last = { ok, at: this.clock() };
      this.running = null;
      return ok;
    });
    return this.running;
  }

  private async ask(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), HEALTH_DB_TIMEOUT_MS);
    });
    const answer = this.db
      .execute(sql`select 1`)
      .then(() => true)
      .catch(() => false);
    try {
      return await Promise.race([answer, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
