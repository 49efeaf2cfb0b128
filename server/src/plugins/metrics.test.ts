import type { AddressInfo } from 'node:net';
import { io as connectClient, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roomName } from '@margins/common';
import { DEFAULT_JOB_SETTINGS } from '../config.ts';
import type { Database } from '../db/index.ts';
import { buildScene, type Scene } from '../modules/comments/test-helpers.ts';
import { postFile, waitForState } from '../modules/manuscripts/test-helpers.ts';
import { createTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { AppMetrics } from './metrics.ts';

const TOKEN = 'metrics-token-for-the-tests';

let test: TestApp;
let baseUrl: string;
let scene: Scene;
const sockets: Socket[] = [];

beforeAll(async () => {
  test = await createTestApp({
    metricsToken: TOKEN,
    jobs: { ...DEFAULT_JOB_SETTINGS, pollingSeconds: 0.5 },
  });
  await test.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
  scene = await buildScene(test);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await test?.close();
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of the Prometheus text format (no escaped quotes in our label values). */
function parse(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map(([, key, value]) => [key, value]),
      );
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

async function scrape(headers: Record<string, string> = {}): Promise<Sample[]> {
  const response = await test.app.inject({ method: 'GET', url: '/metrics', headers });
  expect(response.statusCode, response.body).toBe(200);
  return parse(response.body);
}

/** The sum of the samples of `name` whose labels include `labels`. */
function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((sample) => sample.name === name)
    .filter((sample) =>
      Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    )
    .reduce((sum, sample) => sum + sample.value, 0);
}

async function connect(client?: TestClient): Promise<Socket> {
  const cookie = client
    ? [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    : '';
  const socket = connectClient(baseUrl, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders: cookie ? { cookie } : {},
  });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

describe('GET /metrics', () => {
  it('answers every family in the Prometheus text format', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const types = new Map(
      [...response.body.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(([, name, type]) => [name, type]),
    );
    const expected: Record<string, string> = {
      margins_http_request_duration_seconds: 'histogram',
      margins_process_cpu_user_seconds_total: 'counter',
      margins_process_resident_memory_bytes: 'gauge',
      margins_nodejs_eventloop_lag_seconds: 'gauge',
      margins_nodejs_heap_size_used_bytes: 'gauge',
      margins_nodejs_gc_duration_seconds: 'histogram',
      margins_socket_connections: 'gauge',
      margins_socket_rooms: 'gauge',
      margins_socket_events_received_total: 'counter',
      margins_job_queue_jobs: 'gauge',
      margins_job_wait_seconds: 'histogram',
      margins_job_run_seconds: 'histogram',
      margins_conversion_duration_seconds: 'histogram',
      margins_mail_outbox_pending: 'gauge',
      margins_cache_hits_total: 'counter',
      margins_cache_misses_total: 'counter',
      margins_metrics_collector_failures_total: 'counter',
    };
    const pool = {
      margins_db_pool_clients: 'gauge',
      margins_db_pool_idle_clients: 'gauge',
      margins_db_pool_waiting_requests: 'gauge',
    };
    if (test.database.kind === 'postgres') Object.assign(expected, pool);
    for (const [name, type] of Object.entries(expected)) expect(types.get(name), name).toBe(type);
    if (test.database.kind === 'pglite') {
      for (const name of Object.keys(pool)) expect(types.has(name), name).toBe(false);
    }
    for (const name of types.keys()) expect(name).toMatch(/^margins_[a-z0-9_]+$/);

    const samples = parse(response.body);
    expect(total(samples, 'margins_mail_outbox_pending')).toBe(0);
    // Every declared queue is counted (pg-boss's monitor may not have counted any job yet).
    const queues = new Set(
      samples.filter((s) => s.name === 'margins_job_queue_jobs').map((s) => s.labels.queue),
    );
    expect(queues).toContain('convert-document');
    expect(queues).toContain('deliver-mail');
    expect(total(samples, 'margins_metrics_collector_failures_total')).toBe(0);
  });

  it('times a request under its route pattern and status; the scrapes themselves are left out', async () => {
    const response = await test.app.inject({
      method: 'GET',
      url: '/manuscript/document/state/123456',
      headers: { accept: 'application/json' },
    });
    await test.app.inject({ method: 'GET', url: '/no/such/path/987' });
    const samples = await scrape();
    const count = 'margins_http_request_duration_seconds_count';
    expect(
      total(samples, count, {
        route: '/manuscript/document/state/:result_id',
        method: 'GET',
        status_code: String(response.statusCode),
      }),
    ).toBe(1);
    expect(
      total(samples, count, { route: 'unmatched', method: 'GET', status_code: '404' }),
    ).toBeGreaterThanOrEqual(1);
    const routes = samples.filter((s) => s.name === count).map((s) => s.labels.route);
    expect(routes.some((route) => route?.includes('123456') || route?.includes('987'))).toBe(false);
    expect(routes).not.toContain('/metrics');
  });

  it('counts socket events by name, and the connections and rooms at scrape time', async () => {
    const before = await scrape();
    const socket = await connect(scene.writer.client);
    const answer = (await socket
      .timeout(5_000)
      .emitWithAck('join', { room: roomName(scene.manuscript.id) })) as { ok: boolean };
    expect(answer.ok).toBe(true);
    await socket.timeout(5_000).emitWithAck('join', { room: 'not-a-room' });
    const after = await scrape();
    const events = 'margins_socket_events_received_total';
    expect(total(after, events, { event: 'join' }) - total(before, events, { event: 'join' })).toBe(
      2,
    );
    expect(total(after, 'margins_socket_connections')).toBe(1);
    expect(total(after, 'margins_socket_rooms')).toBe(1);
  });

  it('times the conversion and its job', async () => {
    const author = scene.owner.client;
    const response = await postFile(author, '/manuscript/document', 'short.md', '# Short\n\nText.');
    expect(response.statusCode, response.body).toBe(200);
    const state = await waitForState(author, response.json().process_id);
    expect(state.status, state.message).toBe('SUCCESS');
    const converted = { format: 'md', outcome: 'converted' };
    expect(total(await scrape(), 'margins_conversion_duration_seconds_count', converted)).toBe(1);
    // The job's attempt ends just after the conversion's state is saved.
    const run = { queue: 'convert-document', outcome: 'completed' };
    const deadline = Date.now() + 5_000;
    let samples = await scrape();
    while (total(samples, 'margins_job_run_seconds_count', run) === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      samples = await scrape();
    }
    expect(total(samples, 'margins_job_run_seconds_count', run)).toBe(1);
    expect(total(samples, 'margins_job_wait_seconds_count', { queue: 'convert-document' })).toBe(1);
  });

  it('moves the cache counters on a cached read', async () => {
    // session_ids: a signed cookie's session id, kept for good; the scrapes carry no cookie.
    const count = (samples: Sample[], result: 'hits' | 'misses') =>
      total(samples, `margins_cache_${result}_total`, { cache: 'session_ids' });
    const before = await scrape();
    // The first look-up of the reader's new cookie computes its id; the second finds it kept.
    await scene.reader.client.get('/auth/providers');
    await scene.reader.client.get('/auth/providers');
    const after = await scrape();
    expect(count(after, 'misses') - count(before, 'misses')).toBe(1);
    expect(count(after, 'hits') - count(before, 'hits')).toBe(1);
  });
});

describe('a collector that fails', () => {
  it('is logged and counted, its family left empty, and the rest answered', async () => {
    const warnings: unknown[] = [];
    const broken = () => {
      throw new Error('down');
    };
    const metrics = new AppMetrics({
      database: { db: { select: broken }, pool: null } as unknown as Database,
      jobs: { queueDepths: () => Promise.reject(new Error('down')) },
      realtime: { localCounts: broken },
      log: { warn: (...args: unknown[]) => warnings.push(args) } as never,
    });
    metrics.socketEvent('join');
    const text = await metrics.scrape();
    const samples = parse(text);
    const failures = 'margins_metrics_collector_failures_total';
    for (const collector of ['realtime', 'job_queue', 'mail_outbox']) {
      expect(total(samples, failures, { collector }), collector).toBeGreaterThan(0);
    }
    // No sample (not a 0) where nothing could be read.
    for (const name of ['margins_mail_outbox_pending', 'margins_socket_connections']) {
      expect(text).toContain(`# TYPE ${name} gauge`);
      expect(samples.some((sample) => sample.name === name)).toBe(false);
    }
    expect(samples.some((sample) => sample.name === 'margins_job_queue_jobs')).toBe(false);
    expect(total(samples, 'margins_socket_events_received_total', { event: 'join' })).toBe(1);
    expect(total(samples, 'margins_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(warnings.length).toBeGreaterThan(0);
  });
});

describe('who may read the metrics', () => {
  const get = (remoteAddress: string, headers: Record<string, string> = {}) =>
    test.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });
  const unknownPath = () =>
    test.app.inject({ method: 'GET', url: '/no-metrics-here', remoteAddress: '10.0.0.5' });

  it('serves this machine (IPv4, IPv6, IPv4-mapped) without a token', async () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      expect((await get(address)).statusCode, address).toBe(200);
    }
  });

  it('answers another machine without the token as it answers an unknown path (404)', async () => {
    const refused = await get('10.0.0.5');
    const unknown = await unknownPath();
    expect(refused.statusCode).toBe(404);
    expect(refused.body).toBe(unknown.body);
    expect(refused.headers['content-type']).toBe(unknown.headers['content-type']);
  });

  it('refuses a request a proxy on this machine forwarded, whatever it says', async () => {
    expect((await get('127.0.0.1', { 'x-forwarded-for': '127.0.0.1' })).statusCode).toBe(404);
    expect((await get('127.0.0.1', { 'x-forwarded-for': '203.0.113.7' })).statusCode).toBe(404);
    expect((await get('::1', { forwarded: 'for=203.0.113.7' })).statusCode).toBe(404);
  });

  it('serves anyone with the right bearer token', async () => {
    const response = await get('10.0.0.5', { authorization: `Bearer ${TOKEN}` });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('# TYPE margins_http_request_duration_seconds histogram');
    // Through a proxy too: the token is the proof.
    const forwarded = await get('127.0.0.1', {
      authorization: `Bearer ${TOKEN}`,
      'x-forwarded-for': '203.0.113.7',
    });
    expect(forwarded.statusCode).toBe(200);
  });

  it('refuses a wrong token with the same 404, from this machine too', async () => {
    const unknown = await unknownPath();
    for (const [address, authorization] of [
      ['10.0.0.5', `Bearer ${TOKEN}x`],
      ['10.0.0.5', `Bearer ${TOKEN.slice(0, -1)}`],
      ['10.0.0.5', `Basic ${Buffer.from(`user:${TOKEN}`).toString('base64')}`],
      ['127.0.0.1', 'Bearer wrong-token-wrong-token'],
    ] as const) {
      const response = await get(address, { authorization });
      expect(response.statusCode, authorization).toBe(404);
      expect(response.body).toBe(unknown.body);
    }
  });
});

describe("a worker process's listener (METRICS_PORT)", () => {
  it('answers the metrics and the probes, and nothing else', async () => {
    const worker = await createTestApp({ role: 'worker' });
    try {
      for (const url of ['/metrics', '/healthz', '/readyz']) {
        expect((await worker.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
      }
      for (const url of ['/', '/discover/', '/auth/login', '/api/openapi.json', '/metricsx']) {
        const response = await worker.app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(404);
        expect(response.json().error).toMatch(/serves \/metrics, \/healthz and \/readyz only/);
      }
      const post = await worker.app.inject({ method: 'POST', url: '/auth/login', payload: {} });
      expect(post.statusCode).toBe(404);
      // Nor sockets (they are answered before the app's routes, on the server itself).
      await worker.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (worker.app.server.address() as AddressInfo).port;
      const handshake = await fetch(`http://127.0.0.1:${port}/socket.io/?EIO=4&transport=polling`, {
        headers: { origin: new URL(worker.ctx.config.publicUrl).origin },
      });
      expect(handshake.status).toBe(403);
    } finally {
      await worker.close();
    }
  });
});
