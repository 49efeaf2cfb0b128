// The change signal's cost (issue 34): what the statement triggers of migration 0012 add to a
// write. One table, the same statements with the trigger and without it, alternating rounds.
//   npx tsx bench/change-signal.bench.ts [writes=2000]
//   BENCH_DATABASE_URL=postgres://… npx tsx bench/change-signal.bench.ts   (a PostgreSQL server:
//   a database is created there for the run and dropped after)
// Prints the median time per write, with and without, and the difference (target < 0.1 ms).
import { sql } from 'drizzle-orm';
import { openBenchDatabase } from './embedded-db.ts';
import { percentile, round } from './realtime-support.ts';

const writes = Number(process.argv[2] ?? 2000);
const ROUNDS = 7;
const database = await openBenchDatabase('change-signal');
const { db } = database;
/** ms per write of `writes` single-row statements (insert, update, delete in turn). */
async function timeWrites(): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < writes; index++) {
    const email = `bench-${index}@example.test`;
    if (index % 3 === 0) await db.execute(sql`insert into waiting_list (email) values (${email})`);
    else if (index % 3 === 1) {
      await db.execute(sql`update waiting_list set email = email where email = ${email}`);
    } else await db.execute(sql`delete from waiting_list where email = ${email}`);
  }
  return (performance.now() - started) / writes;
}

const withTrigger: number[] = [];
const without: number[] = [];
try {
  await timeWrites(); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    await db.execute(sql`truncate waiting_list`);
    withTrigger.push(await timeWrites());
    await db.execute(sql`drop trigger margins_changed on waiting_list`);
    await db.execute(sql`truncate waiting_list`);
    without.push(await timeWrites());
    await db.execute(sql`select margins_watch_changes('waiting_list')`);
  }
} finally {
  await database.close();
}
const median = (values: number[]) => percentile(values, 50);
const added = median(withTrigger) - median(without);
console.log(
  `${database.kind}: ${writes} writes × ${ROUNDS} rounds; ms per write, median of rounds`,
);
console.log(['with the trigger', 'without', 'added', 'target'].join(' | '));
console.log(
  [round(median(withTrigger), 4), round(median(without), 4), round(added, 4), '< 0.1'].join(' | '),
);
process.exit(0);
