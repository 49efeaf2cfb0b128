import { createHash, timingSafeEqual } from 'node:crypto';
import { count, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Measurements } from '../context.ts';
import { schema, type Database } from '../db/index.ts';
import type { QueueDepth } from '../jobs/queue.ts';
import { cacheStats } from '../lib/cache/cache.ts';
import { isFromThisMachine } from '../lib/local-request.ts';

/** Where Prometheus scrapes (not in the OpenAPI document: the endpoint is not advertised). */
export const METRICS_PATH = '/metrics';
const PREFIX = 'margins_';

/** Most answers take a millisecond or two: finer buckets there than prom-client's defaults. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Jobs wait for a poll or a retry and may run for minutes (a conversion, an export). */
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];
/** A book converts in 0.1–0.5 s; the limit is a minute (ConversionSettings.timeoutSeconds). */
const CONVERSION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** What the scrape-time collectors read (the app's own objects, as far as they need them). */
interface MetricSources {
  database: Database;
  jobs: { queueDepths(): Promise<QueueDepth[] | null> };
  realtime: { localCounts(): { sockets: number; rooms: number } };
  log: FastifyBaseLogger;
}

/**
 * The process's own figures (CPU, memory, heap, event-loop lag, GC), once per process in a
 * registry of their own: prom-client starts an event-loop monitor and a GC observer for each
 * registry it fills and never stops them, and tests build many apps in one process.
 */
let processRegistry: Registry | null = null;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: PREFIX });
  }
  return processRegistry;
}

/**
 * One app's metrics, in its own prom-client registry (never the global default one: tests build
 * several apps per process). What happens is counted as it happens (the Measurements the app's
 * parts call through ctx.metrics); what is there (sockets, queued jobs, unsent mail, caches, the
 * pool) is read at scrape time. A collector that fails is logged and counted, and its family
 * is left empty: the rest of the scrape is answered.
 */
export class AppMetrics implements Measurements {
  readonly registry = new Registry();
  /** The collectors' failures, written after the registry (they fail while it is collected). */
  private readonly collectorHealth = new Registry();
  private readonly log: FastifyBaseLogger;
  private readonly failures: Counter<'collector'>;
  private readonly httpDurations: Histogram<'route' | 'method' | 'status_code'>;
  private readonly socketEvents: Counter<'event'>;
  private readonly jobWaits: Histogram<'queue'>;
  private readonly jobRuns: Histogram<'queue' | 'outcome'>;
  private readonly conversions: Histogram<'format' | 'outcome'>;

  constructor(sources: MetricSources) {
    this.log = sources.log;
    this.failures = new Counter({
      name: `${PREFIX}metrics_collector_failures_total`,
      help: 'Scrapes at which a collector failed (its family was left empty).',
      labelNames: ['collector'],
      registers: [this.collectorHealth],
    });
    const registers = [this.registry];
    this.httpDurations = new Histogram({
      name: `${PREFIX}http_request_duration_seconds`,
      help: 'HTTP requests by route pattern ("unmatched": no route), method and status code.',
      labelNames: ['route', 'method', 'status_code'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.socketEvents = new Counter({
      name: `${PREFIX}socket_events_received_total`,
      help: 'Socket.IO events received by this process, by event name.',
      labelNames: ['event'],
      registers,
    });
    this.jobWaits = new Histogram({
      name: `${PREFIX}job_wait_seconds`,
      help: 'Time from when a job could start (sent, or its retry due) to when an attempt started.',
      labelNames: ['queue'],
      buckets: JOB_BUCKETS,
      registers,
    });
    this.jobRuns = new Histogram({
      name: `${PREFIX}job_run_seconds`,
      help: 'Time a job attempt ran in this process, by queue and outcome (completed or failed).',
      labelNames: ['queue', 'outcome'],
      buckets: JOB_BUCKETS,
      registers,
    });
    this.conversions = new Histogram({
      name: `${PREFIX}conversion_duration_seconds`,
      help: 'Document conversions by source format and outcome (converted, or refused).',
      labelNames: ['format', 'outcome'],
      buckets: CONVERSION_BUCKETS,
      registers,
    });
    this.readAtScrape(sources);
  }

  socketEvent(event: string): void {
    this.socketEvents.inc({ event });
  }

  jobStarted(queue: string, waitSeconds: number): void {
    this.jobWaits.observe({ queue }, waitSeconds);
  }

  jobFinished(queue: string, seconds: number, outcome: 'completed' | 'failed'): void {
    this.jobRuns.observe({ queue, outcome }, seconds);
  }

  conversion(format: string, seconds: number, outcome: 'converted' | 'refused'): void {
    this.conversions.observe({ format, outcome }, seconds);
  }

  /** One answered request (the onResponse hook). */
  request(route: string | undefined, method: string, status: number, seconds: number): void {
    this.httpDurations.observe(
      { route: route ?? 'unmatched', method, status_code: String(status) },
      seconds,
    );
  }

  /** The text Prometheus reads: the process's figures, this app's, the collectors' failures. */
  async scrape(): Promise<string> {
    let text = '';
    try {
      text += await processMetrics().metrics();
    } catch (error) {
      this.failed('process', error);
    }
    text += await this.registry.metrics();
    return text + (await this.collectorHealth.metrics());
  }

  /** Runs one scrape-time collector; a failure empties `metric` and is logged and counted. */
  private async collectSafely(
    collector: string,
    metric: Gauge | Counter,
    read: () => void | Promise<void>,
  ): Promise<void> {
    try {
      metric.reset();
      await read();
    } catch (error) {
      metric.reset();
      // An unlabelled gauge's reset() is a 0, which would read as "none": no sample instead.
      metric.remove({});
      this.failed(collector, error);
    }
  }

  private failed(collector: string, error: unknown): void {
    this.failures.inc({ collector });
    this.log.warn({ err: error, collector }, 'a metrics collector failed');
  }

  private readAtScrape({ database, jobs, realtime }: MetricSources): void {
    const registers = [this.registry];
    const safely = this.collectSafely.bind(this);

    /** An unlabelled gauge read at scrape time. */
    const scrapedGauge = (collector: string, name: string, help: string, read: () => number) =>
      new Gauge({
        name: `${PREFIX}${name}`,
        help,
        registers,
        collect() {
          return safely(collector, this, () => this.set(read()));
        },
      });

    scrapedGauge(
      'realtime',
      'socket_connections',
      'Socket.IO connections to this process.',
      () => realtime.localCounts().sockets,
    );
    scrapedGauge(
      'realtime',
      'socket_rooms',
      'Manuscript rooms with at least one socket of this process in them.',
      () => realtime.localCounts().rooms,
    );

    new Gauge({
      name: `${PREFIX}job_queue_jobs`,
      help:
        'Jobs in each queue by state (ready: due now; deferred: waiting for a retry; active), ' +
        "as pg-boss's monitor last counted them.",
      labelNames: ['queue', 'state'],
      registers,
      collect() {
        return safely('job_queue', this, async () => {
          // Null before the queue has started: no samples.
          for (const depth of (await jobs.queueDepths()) ?? []) {
            this.set({ queue: depth.queue, state: 'ready' }, depth.ready);
            this.set({ queue: depth.queue, state: 'deferred' }, depth.deferred);
            this.set({ queue: depth.queue, state: 'active' }, depth.active);
          }
        });
      },
    });

    new Gauge({
      name: `${PREFIX}mail_outbox_pending`,
      help: 'Mails in the outbox not sent yet (waiting for delivery or for a retry).',
      registers,
      collect() {
        return safely('mail_outbox', this, async () => {
          // The literal (not a parameter) lets every plan use the partial index on it (migration 0014).
          const [row] = await database.db
            .select({ pending: count() })
            .from(schema.mailOutbox)
            .where(sql`${schema.mailOutbox.status} = 'pending'`);
          this.set(row?.pending ?? 0);
        });
      },
    });

    // cacheStats() counts for the whole process (every app on every database), by cache name.
    new Counter({
      name: `${PREFIX}cache_hits_total`,
      help: 'Lookups a kept value answered, by cache (lib/cache/cache.ts).',
      labelNames: ['cache'],
      registers,
      collect() {
        return safely('cache', this, () => {
          for (const stats of cacheStats()) this.inc({ cache: stats.name }, stats.hits);
        });
      },
    });
    new Counter({
      name: `${PREFIX}cache_misses_total`,
      help: 'Lookups that computed their value, by cache (lib/cache/cache.ts).',
      labelNames: ['cache'],
      registers,
      collect() {
        return safely('cache', this, () => {
          for (const stats of cacheStats()) this.inc({ cache: stats.name }, stats.misses);
        });
      },
    });

    const pool = database.pool;
    if (!pool) return; // the embedded database has no pool
    scrapedGauge(
      'db_pool',
      'db_pool_clients',
      'PostgreSQL connections the pool holds.',
      () => pool.totalCount,
    );
    scrapedGauge(
      'db_pool',
      'db_pool_idle_clients',
      'Pool connections not in use.',
      () => pool.idleCount,
    );
    scrapedGauge(
      'db_pool',
      'db_pool_waiting_requests',
      'Queries waiting for a pool connection.',
      () => pool.waitingCount,
    );
  }
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Whether a request may read the metrics: with `Authorization: Bearer $METRICS_TOKEN` (compared
 * in constant time), or without any Authorization from this machine (lib/local-request.ts: the
 * socket's own address, and no proxy's headers).
 */
function mayRead(request: FastifyRequest, token: string | undefined): boolean {
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return !!token && !!match && timingSafeEqual(digest(match[1]!), digest(token));
  }
  return isFromThisMachine(request);
}

/**
 * GET /metrics (Prometheus text format) and the hook that times every answered request. Must be
 * registered before the routes, so its hook sees them all.
 *
 * A request that may not read the metrics (mayRead) is answered exactly as an unknown path (the
 * not-found handler: 404), a wrong token included: the endpoint is not advertised, and a probe
 * learns nothing from the answer. A scraper that gets 404 has the wrong token or address.
 */
export function registerMetrics(app: FastifyInstance, metrics: AppMetrics): void {
  const token = app.ctx.config.metricsToken;
  // A callback, not an async function: no promise for every request.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url;
    if (route !== METRICS_PATH) {
      metrics.request(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    }
    done();
  });
  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (!mayRead(request, token)) return reply.callNotFound();
    const text = await metrics.scrape();
    return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(text);
  });
}

/** A worker's listener (METRICS_PORT): these paths and no other. */
const WORKER_PATHS = /^\/(metrics|healthz|readyz)(\?|$)/;

/**
 * On a `--role=worker` process: its listener (METRICS_PORT) is for the scraper and the probes
 * only; anything else is a 404, as if there were nothing there.
 */
export function registerWorkerListener(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (WORKER_PATHS.test(request.url)) done();
    else
      void reply
        .code(404)
        .send({ error: 'A worker process serves /metrics, /healthz and /readyz only.' });
  });
}
