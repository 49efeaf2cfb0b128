// The production topology, as an operator runs it (issue 35): PostgreSQL, two web processes and
// one worker of the built server, a sticky balancer in front, real clients through it. Run by
// `npm test` (scripts/test-all.sh, the topology stage) with TOPOLOGY_DATABASE_URL set to a
// PostgreSQL server; each step builds on the one before, in order.
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/index.ts';
import { migrationsFolder } from '../src/paths.ts';
import { buildUser, TEST_PASSWORD } from '../src/test/factories.ts';
import { buildManuscript } from '../src/modules/manuscripts/test-helpers.ts';
import { StickyBalancer } from './balancer.ts';
import { freePort, freshDatabase, ServerProcess } from './cluster.ts';
import { Browser, RoomReader } from './readers.ts';

const serverUrl = process.env.TOPOLOGY_DATABASE_URL!;
/** How long a drained process keeps answering while the balancer notices (checks: 100 ms). */
const DRAIN_DELAY_MS = 1_000;
const PARAGRAPHS = Array.from(
  { length: 20 },
  (_, index) =>
    `<p id="p-${index}">Paragraph ${index}: the archivist kept the old charts in drawers.</p>`,
).join('');

let databaseUrl = '';
let dropDatabase: () => Promise<void> = async () => {};
let database: Database | null = null;
let balancer: StickyBalancer;
let baseUrl: string;
const processes: Record<'web1' | 'web2' | 'worker', ServerProcess> = {} as never;
const readers: RoomReader[] = [];
let manuscriptId: number;
let owner: Awaited<ReturnType<typeof buildUser>>;

async function browserAs(user: { email: string }, backend?: string): Promise<Browser> {
  const browser = new Browser(baseUrl);
  if (backend) browser.pin(backend);
  await browser.logIn(user.email, TEST_PASSWORD);
  return browser;
}

/** Every reader has every acknowledged comment (live or by catch-up), and the server has them. */
async function expectNothingLost(): Promise<number> {
  const acked = new Set(readers.flatMap((reader) => [...reader.acked]));
  const everyone = () => readers.every((reader) => [...acked].every((id) => reader.seen.has(id)));
  await readers[0]!.until(everyone, 10_000).catch(() => undefined);
  for (const reader of readers) {
    expect([...acked].filter((id) => !reader.seen.has(id))).toEqual([]);
  }
  const listed = await (await browserAs(owner)).call('GET', `/comments/manuscript/${manuscriptId}`);
  const stored = new Set(
    (listed.body as { comments: Array<{ id: number }> }).comments.map((c) => c.id),
  );
  expect([...acked].filter((id) => !stored.has(id))).toEqual([]);
  return acked.size;
}

describe.skipIf(!serverUrl)(
  'two web processes and a worker on PostgreSQL, behind a balancer',
  () => {
    beforeAll(async () => {
      const fresh = await freshDatabase(serverUrl);
      dropDatabase = fresh.drop;
      databaseUrl = fresh.url;
      const [web1Port, web2Port, workerPort] = await Promise.all([
        freePort(),
        freePort(),
        freePort(),
      ]);
      balancer = new StickyBalancer([
        { name: 'web1', port: web1Port! },
        { name: 'web2', port: web2Port! },
      ]);
      baseUrl = `http://127.0.0.1:${await balancer.start()}`;
      const env = {
        DATABASE_URL: fresh.url,
        PUBLIC_URL: baseUrl,
        DRAIN_DELAY_MS: String(DRAIN_DELAY_MS),
      };
      processes.web1 = new ServerProcess('web1', 'web', web1Port!, env);
      processes.web2 = new ServerProcess('web2', 'web', web2Port!, env);
      processes.worker = new ServerProcess('worker', 'worker', workerPort!, {
        ...env,
        METRICS_PORT: String(workerPort),
      });
    }, 60_000);

    afterAll(async () => {
      const step = async (name: string, work: () => Promise<unknown>) => {
        const started = Date.now();
        await work();
        if (Date.now() - started > 5_000)
          console.log(`topology: closing ${name} took ${Date.now() - started} ms`);
      };
      for (const reader of readers) reader.close();
      await step('the balancer', async () => balancer?.close());
      for (const process of Object.values(processes)) process.cleanUp();
      await database?.close();
      await dropDatabase();
    }, 60_000);

    it('starts all three at the same moment on an empty database: one migrates, all come up', async () => {
      await Promise.all(Object.values(processes).map((process) => process.start()));
      await balancer.waitFor('web1');
      await balancer.waitFor('web2');
      database = await openDatabase({ databaseUrl });
      const applied = await database.pool!.query(
        'SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations',
      );
      const files = readdirSync(migrationsFolder).filter((name) => name.endsWith('.sql'));
      expect(applied.rows[0].n).toBe(files.length);
    });

    it('a log-in made on one web process is good on the other', async () => {
      owner = await buildUser(database!.db);
      const browser = await browserAs(owner, 'web1');
      for (const backend of ['web2', 'web1', 'web2']) {
        browser.pin(backend);
        const answer = await browser.call('GET', '/user/current/manuscripts');
        expect({ status: answer.status, backend: answer.backend }).toEqual({
          status: 200,
          backend,
        });
      }
      const stranger = new Browser(baseUrl);
      stranger.pin('web2');
      expect((await stranger.call('GET', '/user/current/manuscripts')).status).toBe(401);
    });

    it('a comment written on one process reaches a reader on the other', async () => {
      const manuscript = await buildManuscript(
        database!.db,
        owner,
        { visibility: 'public', title: 'Across processes' },
        `<h1 id="h-start">Start</h1>${PARAGRAPHS}`,
      );
      manuscriptId = manuscript.id;
      // Six readers, three on each web process (their first visit's cookie), in the room.
      for (let index = 0; index < 6; index++) {
        const person = await buildUser(database!.db);
        readers.push(
          new RoomReader(await browserAs(person, index % 2 ? 'web2' : 'web1'), manuscriptId),
        );
      }
      await Promise.all(readers.map((reader) => reader.enter()));
      const [writer, listener] = [readers[0]!, readers[1]!];
      const sent = Date.now();
      await writer.write('Written on web1, read on web2.');
      const [id] = [...writer.acked];
      await listener.until(() => listener.seen.has(id!), 5_000);
      expect(listener.joinedAt).toHaveLength(1); // live, not by a catch-up
      expect(Date.now() - sent).toBeLessThan(1_000);
    });

    it('kill -9 of a web process: its readers are back in the room on the other within 2 s', async () => {
      const load = steadyLoad();
      await sleep(2_000);
      const onWeb1 = readers.filter((_, index) => index % 2 === 0);
      const killed = Date.now();
      await processes.web1.kill();
      await Promise.all(
        onWeb1.map((reader) => reader.until(() => reader.joinedAt.at(-1)! > killed, 10_000)),
      );
      const back = Math.max(...onWeb1.map((reader) => reader.joinedAt.at(-1)! - killed));
      console.log(`topology: sockets of the killed process back in their room after ${back} ms`);
      expect(back).toBeLessThan(2_000);
      await sleep(1_500);
      const { failures } = await load.stop();
      // Requests in flight to the killed process may fail: what matters is nothing acknowledged lost.
      console.log(`topology: ${failures.length} requests cut by the kill`);
      expect(await expectNothingLost()).toBeGreaterThan(0);
      await processes.web1.start();
      await balancer.waitFor('web1');
    });

    it('a rolling restart (each process SIGTERMed, then started again) under load: 0 failed, 0 lost', async () => {
      for (const reader of readers) reader.failures.length = 0;
      const load = steadyLoad();
      await sleep(2_000);
      for (const name of ['web1', 'web2', 'worker'] as const) {
        expect(await processes[name].stop()).toBe(0);
        await processes[name].start();
        if (name !== 'worker') await balancer.waitFor(name);
        await sleep(1_500);
      }
      const { failures, requests } = await load.stop();
      const writes = readers.flatMap((reader) => reader.failures);
      console.log(
        `topology: rolling restart under ${requests} requests: ${failures.length} failed`,
      );
      expect(failures).toEqual([]);
      expect(writes).toEqual([]);
      expect(balancer.failed).toBe(0);
      expect(await expectNothingLost()).toBeGreaterThan(0);
      // Every reader moved at least once, and every one is live again.
      for (const reader of readers) {
        expect(reader.joinedAt.length).toBeGreaterThan(1);
        expect(reader.live).toBe(true);
      }
    });

    it('kill -9 of the worker mid-conversion: the manuscript is readable within 15 s', async () => {
      const author = await browserAs(owner);
      const form = new FormData();
      form.append('docxfile', new Blob([bigMarkdown()], { type: 'text/markdown' }), 'long-book.md');
      const uploaded = await author.call('POST', '/manuscript/document', form);
      expect(uploaded.status).toBe(200);
      const { manuscript, process_id: processId } = uploaded.body as {
        manuscript: { id: number };
        process_id: string;
      };
      const active = async () =>
        (
          await database!.pool!.query(
            "SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'convert-document' AND state = 'active'",
          )
        ).rows[0].n > 0;
      const deadline = Date.now() + 15_000;
      while (!(await active())) {
        if (Date.now() > deadline) throw new Error('the conversion never started');
        await sleep(10);
      }
      const killed = Date.now();
      await processes.worker.kill();
      await processes.worker.start();
      for (;;) {
        const state = await author.call('GET', `/manuscript/document/state/${processId}`);
        const status = (state.body as { status: string }).status;
        if (status !== 'PENDING' && status !== 'PROGRESS') {
          expect(status).toBe('SUCCESS');
          break;
        }
        if (Date.now() - killed > 15_000) throw new Error(`still ${status} 15 s after the kill`);
        await sleep(100);
      }
      const reader = await author.call('GET', `/manuscript/document/reader/${manuscript.id}`);
      expect(reader.status).toBe(200);
      // Cut mid-way and run again, not finished before the kill.
      const { rows } = await database!.pool!.query(
        "SELECT retry_count FROM pgboss.job WHERE name = 'convert-document' AND state = 'completed'",
      );
      expect(rows.map((row: { retry_count: number }) => row.retry_count)).toEqual([1]);
      console.log(`topology: readable ${Date.now() - killed} ms after the worker was killed`);
      expect(Date.now() - killed).toBeLessThan(15_000);

      // The upload's request id follows it into the job, on the other process.
      const requestId = uploaded.requestId;
      const upload = processes.web1.logLines().concat(processes.web2.logLines());
      expect(upload.some((line) => line.reqId === requestId && line.msg === 'request')).toBe(true);
      const done = processes.worker
        .logLines()
        .find((line) => line.msg === 'job done' && line.job === 'convert-document');
      expect(done).toMatchObject({ job: 'convert-document', reqId: requestId });
      // The worker's scraper sees its jobs (METRICS_PORT), and nothing else is served there.
      const metrics = await fetch(`http://127.0.0.1:${processes.worker.port}/metrics`);
      expect(await metrics.text()).toMatch(
        /margins_job_run_seconds_count\{[^}]*convert-document[^}]*\} [1-9]/,
      );
      const page = await fetch(`http://127.0.0.1:${processes.worker.port}/discover/`);
      expect(page.status).toBe(404);
    });
  },
);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Every reader writes a comment a second (spread out), and two browsers read the manuscript and
 * its comments without pause; `stop()` answers the HTTP requests made and those that failed.
 */
function steadyLoad(): { stop(): Promise<{ failures: string[]; requests: number }> } {
  let running = true;
  const failures: string[] = [];
  let requests = 0;
  const writers = readers.map(async (reader, index) => {
    await sleep(index * 150);
    for (let seq = 0; running; seq++) {
      await reader.write(`Reader ${index}, comment ${seq}.`);
      await sleep(1_000);
    }
  });
  const pages = [
    `/manuscript/document/reader/${manuscriptId}`,
    `/comments/manuscript/${manuscriptId}`,
  ];
  const lookers = [0, 1].map(async (index) => {
    const browser = await browserAs(owner, index ? 'web2' : 'web1');
    while (running) {
      const url = pages[requests % pages.length]!;
      requests += 1;
      try {
        const answer = await browser.call('GET', url);
        if (answer.status !== 200) failures.push(`${url}: ${answer.status}`);
      } catch (error) {
        failures.push(`${url}: ${String(error)}`);
      }
      await sleep(20);
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all([...writers, ...lookers]);
      return { failures, requests };
    },
  };
}

/** A long book in Markdown (~150,000 words): its conversion takes long enough to be cut. */
function bigMarkdown(): string {
  const sentence = 'The keeper climbed the stair at dusk and trimmed the wick before the storm. ';
  const chapters: string[] = [];
  for (let chapter = 1; chapter <= 40; chapter++) {
    chapters.push(`# Chapter ${chapter}\n\n`);
    for (let paragraph = 0; paragraph < 70; paragraph++) {
      chapters.push(`${sentence.repeat(4)}Paragraph ${chapter}.${paragraph}.\n\n`);
    }
  }
  return chapters.join('');
}
