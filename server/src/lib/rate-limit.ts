import { lt, sql, and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/index.ts';
import { rateLimits } from '../db/schema-limits.ts';

/** How often one process deletes windows that have ended (of its own bucket). */
const SWEEP_EVERY_MS = 60_000;

/** A window counted in this process (`inProcess`). */
interface Window {
  count: number;
  resetAt: number;
}

/**
 * The in-process windows, per database handle (two apps on one embedded database share) and
 * bucket, by key.
 */
const inProcessWindows = new WeakMap<object, Map<string, Map<string, Window>>>();

/**
 * A fixed-window counter per key, kept in the database (table rate_limits), so that every
 * process on the same database counts against one limit: with N web processes the limit
 * stays the limit, not N times it.
 *
 * `inProcess`: counted in this process's memory instead, for a hot limit on the embedded
 * database, which one process alone may open (its data dir is locked): the same count without
 * a statement (and its commit) on every hit. A restart starts the windows afresh.
 */
export class RateLimiter {
  private lastSweep = 0;

  constructor(
    private readonly db: Db,
    /** Names this limiter's rows; two limiters must not share a bucket. */
    readonly bucket: string,
    private readonly max: number,
    private readonly windowMs: number,
    private readonly options: { inProcess?: boolean } = {},
  ) {}

  /**
   * Counts one hit; resolves false when the key is over its limit. Inside a transaction pass
   * it as `db` (on PGlite a second connection would wait for the transaction forever).
   */
  async hit(key: string, options: { db?: Db | Tx; now?: number } = {}): Promise<boolean> {
    const now = options.now ?? Date.now();
    if (this.options.inProcess) return this.hitInProcess(key, now);
    const db = options.db ?? this.db;
    if (!options.db) await this.sweep(now);
    const at = new Date(now).toISOString();
    const resetAt = new Date(now + this.windowMs).toISOString();
    // One statement, atomic under concurrency: a new key or an ended window starts at 1,
    // a running window counts up. Two processes hitting at once both see their own count.
    const [row] = await db
      .insert(rateLimits)
      .values({ bucket: this.bucket, key, count: 1, resetAt: new Date(resetAt) })
      .onConflictDoUpdate({
        target: [rateLimits.bucket, rateLimits.key],
        set: {
          count: sql`case when ${rateLimits.resetAt} <= ${at}::timestamptz then 1 else ${rateLimits.count} + 1 end`,
          resetAt: sql`case when ${rateLimits.resetAt} <= ${at}::timestamptz then excluded.reset_at else ${rateLimits.resetAt} end`,
        },
      })
      .returning({ count: rateLimits.count });
    return (row?.count ?? 1) <= this.max;
  }

  /** Forgets a key (after a successful log in, say). */
  async reset(key: string): Promise<void> {
    if (this.options.inProcess) {
      this.windows().delete(key);
      return;
    }
    await this.db
      .delete(rateLimits)
      .where(and(eq(rateLimits.bucket, this.bucket), eq(rateLimits.key, key)));
  }

  /** This bucket's in-process windows. */
  private windows(): Map<string, Window> {
    let buckets = inProcessWindows.get(this.db);
    if (!buckets) {
      buckets = new Map();
      inProcessWindows.set(this.db, buckets);
    }
    let windows = buckets.get(this.bucket);
    if (!windows) {
      windows = new Map();
      buckets.set(this.bucket, windows);
    }
    return windows;
  }

  private hitInProcess(key: string, now: number): boolean {
    const windows = this.windows();
    if (now - this.lastSweep >= SWEEP_EVERY_MS) {
      this.lastSweep = now;
      for (const [name, window] of windows) if (window.resetAt <= now) windows.delete(name);
    }
    const window = windows.get(key);
    if (!window || window.resetAt <= now) {
      windows.set(key, { count: 1, resetAt: now + this.windowMs });
      return 1 <= this.max;
    }
    window.count += 1;
    return window.count <= this.max;
  }

  /** Deletes this bucket's ended windows, at most once a minute per process. */
  private async sweep(now: number): Promise<void> {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    await this.db
      .delete(rateLimits)
      .where(and(eq(rateLimits.bucket, this.bucket), lt(rateLimits.resetAt, new Date(now))));
  }
}
