import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { loginThrottles } from '../db/schema-limits.ts';

const SWEEP_EVERY_MS = 60_000;

interface ThrottleOptions {
  /** Failures before the first wait; from the last of them on, each failure doubles it. */
  freeFailures: number;
  baseDelaySeconds: number;
  maxDelaySeconds: number;
  /** Failures are forgotten this long after the last one. */
  forgetAfterSeconds: number;
}

/**
 * Growing delays after failures (log-in), kept in the database so every process shares them.
 * Unlike a lock, a throttle never shuts a key out for long: the wait doubles per failure up to
 * a cap, and the owner has ways around it that an attacker lacks (a known device, a mailed link).
 */
export class FailureThrottle {
  private lastSweep = 0;

  constructor(
    private readonly db: Db,
    /** Prefixes this throttle's keys ("login-ip", "login-account"). */
    readonly bucket: string,
    private readonly options: ThrottleOptions,
  ) {}

  /** Seconds this key must still wait before its next attempt (0: it may try now). */
  async waitSeconds(key: string, now = Date.now()): Promise<number> {
    await this.sweep(now);
    const [row] = await this.db
      .select({ blockedUntil: loginThrottles.blockedUntil })
      .from(loginThrottles)
      .where(
        and(eq(loginThrottles.key, this.rowKey(key)), gt(loginThrottles.expiresAt, new Date(now))),
      );
    const until = row?.blockedUntil?.getTime() ?? 0;
    return until > now ? Math.ceil((until - now) / 1000) : 0;
  }

  /** Records one failure (one atomic statement); returns the wait it imposes, in seconds. */
  async fail(key: string, now = Date.now()): Promise<number> {
    const { freeFailures, baseDelaySeconds, maxDelaySeconds, forgetAfterSeconds } = this.options;
    const at = new Date(now).toISOString();
    const expiresAt = new Date(now + forgetAfterSeconds * 1000);
    // The failure count after this one: a forgotten (expired) row starts again at 1.
    const failures = sql`(case when ${loginThrottles.expiresAt} <= ${at}::timestamptz then 1 else ${loginThrottles.failures} + 1 end)`;
    const [row] = await this.db
      .insert(loginThrottles)
      .values({
        key: this.rowKey(key),
        failures: 1,
        blockedUntil: delayUntil(now, 1, this.options),
        expiresAt,
      })
      .onConflictDoUpdate({
        target: loginThrottles.key,
        set: {
          failures,
          // From the free-th failure on the wait doubles: base · 2^(failures − free), capped.
          blockedUntil: sql`case when ${failures} >= ${freeFailures} then ${at}::timestamptz + make_interval(secs => least(${maxDelaySeconds}::float8, ${baseDelaySeconds}::float8 * power(2::float8, (${failures} - ${freeFailures})::float8))) else null end`,
          expiresAt,
        },
      })
      .returning({ blockedUntil: loginThrottles.blockedUntil });
    const until = row?.blockedUntil?.getTime() ?? 0;
    return until > now ? Math.ceil((until - now) / 1000) : 0;
  }

  /** Forgets the failures of a key (after a successful log-in). */
  async clear(key: string): Promise<void> {
    await this.db.delete(loginThrottles).where(eq(loginThrottles.key, this.rowKey(key)));
  }

  private rowKey(key: string): string {
    return `${this.bucket}:${key}`;
  }

  /** Deletes forgotten rows (of every throttle), at most once a minute per process. */
  private async sweep(now: number): Promise<void> {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    await this.db.delete(loginThrottles).where(lt(loginThrottles.expiresAt, new Date(now)));
  }
}

/** When a key with this many failures may try again (null: at once). */
function delayUntil(now: number, failures: number, options: ThrottleOptions): Date | null {
  if (failures < options.freeFailures) return null;
  const exponent = failures - options.freeFailures;
  const seconds = Math.min(options.maxDelaySeconds, options.baseDelaySeconds * 2 ** exponent);
  return new Date(now + seconds * 1000);
}
