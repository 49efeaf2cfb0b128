import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { afterEach, describe, expect, it } from 'vitest';
import { HEALTH_DB_FRESH_MS, HEALTH_DB_STALE_MS } from '@margins/common';
import type { Db } from '../../db/index.ts';
import { DatabaseProbe } from './database-probe.ts';

/**
 * A real embedded database whose statements are counted, and a clock the test moves. Ready
 * before the probe asks: a new instance's start (seconds on a busy machine) is no answer time.
 */
async function setUp() {
  const pglite = new PGlite();
  await pglite.waitReady;
  const db = drizzle(pglite) as unknown as Db;
  const counted = { statements: 0 };
  const execute = db.execute.bind(db);
  db.execute = ((query: Parameters<Db['execute']>[0]) => {
    counted.statements += 1;
    return execute(query);
  }) as Db['execute'];
  const time = { now: 1_000_000 };
  return { pglite, probe: new DatabaseProbe(db, () => time.now), counted, time };
}

let opened: PGlite | null = null;
afterEach(async () => {
  if (opened && !opened.closed) await opened.close();
  opened = null;
});

describe('the /healthz database probe', () => {
  it('asks the database at most once per fresh window, whatever the rate of requests', async () => {
    const { pglite, probe, counted, time } = await setUp();
    opened = pglite;
    expect(await Promise.all([probe.ok(), probe.ok(), probe.ok()])).toEqual([true, true, true]);
    expect(counted.statements).toBe(1); // the three requests shared one probe
    time.now += HEALTH_DB_FRESH_MS - 1;
    expect(await probe.ok()).toBe(true);
    expect(counted.statements).toBe(1);
    time.now += 2;
    expect(await probe.ok()).toBe(true); // stale: answered at once, a new probe under way
    expect(counted.statements).toBe(2);
  });

  it('shows a database that stopped answering once the last answer is too old', async () => {
    const { pglite, probe, time } = await setUp();
    opened = pglite;
    expect(await probe.ok()).toBe(true);
    await pglite.close();
    // Still within the stale window: the last answer stands while the new probe fails.
    time.now += HEALTH_DB_FRESH_MS + 1;
    expect(await probe.ok()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20)); // that probe's failure lands
    time.now += 1;
    expect(await probe.ok()).toBe(false);
    time.now += HEALTH_DB_STALE_MS + 1;
    expect(await probe.ok()).toBe(false); // too old to stand: this request waited for a probe
  });
});
