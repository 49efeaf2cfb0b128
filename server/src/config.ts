import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const urlWith = (protocols: string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL starting with ${protocols.map((p) => p + '//').join(' or ')}`,
  );

/** A proxy address, CIDR range or proxy-addr name (loopback, linklocal, uniquelocal). */
const PROXY_ADDRESS =
  /^(loopback|linklocal|uniquelocal|(\d{1,3}(\.\d{1,3}){3}|[\da-fA-F]*:[\da-fA-F:.]*)(\/\d{1,3})?)$/;

/** The environment variables of API.md, and a few of our own. */
const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Outside production only this machine may connect unless HOST says otherwise (/dev/mail). */
  HOST: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: urlWith(['postgres:', 'postgresql:']).optional(),
  PUBLIC_URL: urlWith(['http:', 'https:']).optional(),
  SMTP_URL: urlWith(['smtp:', 'smtps:']).optional(),
  MAIL_FROM: z.string().default('Margins <no-reply@margins.local>'),
  STRIPE_SECRET_KEY: z.string().startsWith('sk_', 'must start with sk_').optional(),
  STRIPE_WEBHOOK_SECRET: z.string().startsWith('whsec_', 'must start with whsec_').optional(),
  PRODUCTS_ENABLED: booleanFlag.default(true),
  INVITES_ENABLED: booleanFlag.default(false),
  /** Platform invite codes each user may create. */
  PLATFORM_INVITE_LIMIT: z.coerce.number().int().min(0).max(1000).default(5),
  /** Sign-ups one address may make in an hour (a shared office or a test run may need more). */
  SIGNUP_LIMIT_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(20),
  /**
   * At least 32 characters; required in production. Outside production, when unset, generated
   * once into the database (every process on it shares it: launch/server-secrets.ts).
   */
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** During a rotation: the secret SESSION_SECRET replaces, still accepted (never used to sign). */
  SESSION_SECRET_PREVIOUS: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Words a free-tier user may have across their live manuscripts. */
  WORD_LIMIT_FREE: z.coerce.number().int().min(0).default(300_000),
  /** Worker threads that convert uploaded documents (CPU-heavy; 1 suits a 2-core machine). */
  CONVERSION_THREADS: z.coerce.number().int().min(1).max(16).default(1),
  /** Warm the conversion thread up at start (default: no; see ConversionSettings.warmUp). */
  CONVERSION_WARM_UP: booleanFlag.optional(),
  /**
   * Whose X-Forwarded-For to believe (the client address behind the login limits):
   * "loopback" (a proxy on this machine, the default), "false", "true" (any: only when
   * every request comes through a proxy), or addresses/CIDRs, comma-separated.
   */
  TRUST_PROXY: z
    .string()
    .refine(
      (value) =>
        /^(true|false)$/.test(value) ||
        value.split(',').every((part) => PROXY_ADDRESS.test(part.trim())),
      'must be true, false, loopback, or addresses (CIDR) separated by commas',
    )
    .default('loopback'),
  /**
   * On SIGTERM: how long /readyz answers 503 while requests are still served, so that a balancer
   * stops sending new ones before the listener closes (ms).
   */
  DRAIN_DELAY_MS: z.coerce.number().int().min(0).max(120_000).default(5_000),
  /** On SIGTERM: the longest in-flight requests and jobs may take before the process exits (ms). */
  DRAIN_GRACE_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  /**
   * Lets a scraper elsewhere read GET /metrics with `Authorization: Bearer <token>` (at least 16
   * characters); without it only this machine may (plugins/metrics.ts).
   */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /**
   * A `--role=worker` process answers GET /metrics, /healthz and /readyz on this port, and
   * nothing else (the other roles serve them on PORT).
   */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** Set to false to start with an empty database (tests). */
  SEED_DEMO: booleanFlag.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  /**
   * PUBLIC_URL was set. Without it mails use http://localhost:PORT and links shown in pages
   * use the address of the request (plugins/link-base.ts).
   */
  publicUrlSet: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  stripeSecretKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  productsEnabled: boolean;
  invitesEnabled: boolean;
  platformInviteLimit: number;
  signupLimitPerHour: number;
  /** Signs cookies and checkout offers; '' until buildApp takes the database's (none set). */
  sessionSecret: string;
  /** Secrets that still verify (SESSION_SECRET_PREVIOUS during a rotation); never sign. */
  previousSessionSecrets: string[];
  seedDemo: boolean;
  logLevel: string;
  /** The order of a SIGTERM's drain (launch/drain.ts). */
  drain: { delayMs: number; graceMs: number };
  /** Fastify's trustProxy: which proxies' X-Forwarded-For sets request.ip. */
  trustProxy: boolean | string;
  /** The bearer token that opens GET /metrics to other machines, if set. */
  metricsToken: string | undefined;
  /** Where a worker process serves its metrics and probes (none without it). */
  metricsPort: number | undefined;
  /** Word limit of the free tier (see wordLimitFor). */
  wordLimitFree: number;
  conversionThreads: number;
  conversion: ConversionSettings;
  /** Background job tuning; tests shorten the delays. */
  jobs: JobSettings;
  /**
   * What this process does (`--role`): `all` serves and runs the jobs; with PostgreSQL, `web`
   * only serves (it still enqueues jobs) and `worker` only runs jobs, so each can scale apart.
   */
  role: ServerRole;
}

const SERVER_ROLES = ['all', 'web', 'worker'] as const;
export type ServerRole = (typeof SERVER_ROLES)[number];

export interface JobSettings {
  /** Seconds between polls for new work (pg-boss minimum 0.5). */
  pollingSeconds: number;
  /** Retries after the first attempt before a job counts as failed. */
  retryLimit: number;
  /** First retry delay in seconds; doubles (with jitter) on each retry. */
  retryDelaySeconds: number;
  /** Longest retry delay in seconds. */
  retryDelayMaxSeconds: number;
  /** An attempt running longer than this (or cut off by a restart) is retried. */
  expireSeconds: number;
  /**
   * A running attempt proves it is alive this often (pg-boss minimum 10); one that stops (its
   * process died) is retried at the next supervise check, long before it would expire.
   */
  heartbeatSeconds: number;
  /** Seconds between the checks that expire stuck jobs. */
  superviseSeconds: number;
  /**
   * On PostgreSQL, seconds between the checks for running attempts whose process is gone
   * (jobs/liveness.ts): such an attempt is retried at once, well before its heartbeat is missed.
   */
  sweepSeconds: number;
}

/** How the conversion threads are run (see jobs/conversion-pool.ts). */
export interface ConversionSettings {
  /**
   * Start a conversion thread at start and convert a synthetic document in it, so the first
   * upload finds the converters loaded and optimised (costs about a second of CPU). Off by
   * default: the warm thread kept ~75 MB of the idle server's memory and 1–3 s of its start
   * (bench/start.bench.ts), for ~1 s saved on the first upload after a start; the thread
   * starts with the first conversion instead.
   */
  warmUp: boolean;
  /**
   * A conversion still running after this long is stopped (its thread is ended and replaced)
   * and fails with a message: a book takes well under a second, so only a document that
   * sends a converter into a pathological case gets here, and it must not hold a thread.
   */
  timeoutSeconds?: number;
}

export const DEFAULT_JOB_SETTINGS: JobSettings = {
  pollingSeconds: 1,
  retryLimit: 3,
  retryDelaySeconds: 2,
  retryDelayMaxSeconds: 60,
  expireSeconds: 300,
  heartbeatSeconds: 15,
  superviseSeconds: 30,
  sweepSeconds: 2,
};

/** The session secrets in use: the current one signs; every one verifies (cookies, offers). */
export const sessionSecrets = (
  config: Pick<Config, 'sessionSecret' | 'previousSessionSecrets'>,
) => [config.sessionSecret, ...config.previousSessionSecrets];

export class ConfigError extends Error {}

/** Reads the environment into a typed config; throws ConfigError with one clear line. */
export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(
    Object.fromEntries(Object.entries(environment).filter(([, value]) => value !== '')),
  );
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`Configuration error: ${variable} ${issue.message}`);
  }
  const values = parsed.data;
  const dataDir = path.resolve(values.DATA_DIR);
  if (values.NODE_ENV === 'production' && !values.SESSION_SECRET) {
    throw new ConfigError('Configuration error: SESSION_SECRET must be set in production');
  }
  return {
    env: values.NODE_ENV,
    port: values.PORT,
    host: values.HOST ?? (values.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1'),
    dataDir,
    databaseUrl: values.DATABASE_URL,
    publicUrl: (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/$/, ''),
    publicUrlSet: values.PUBLIC_URL !== undefined,
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM,
    stripeSecretKey: values.STRIPE_SECRET_KEY,
    stripeWebhookSecret: values.STRIPE_WEBHOOK_SECRET,
    productsEnabled: values.PRODUCTS_ENABLED,
    invitesEnabled: values.INVITES_ENABLED,
    platformInviteLimit: values.PLATFORM_INVITE_LIMIT,
    signupLimitPerHour: values.SIGNUP_LIMIT_PER_HOUR,
    sessionSecret: values.SESSION_SECRET ?? '',
    previousSessionSecrets: values.SESSION_SECRET_PREVIOUS ? [values.SESSION_SECRET_PREVIOUS] : [],
    seedDemo: values.SEED_DEMO,
    logLevel: values.LOG_LEVEL,
    drain: { delayMs: values.DRAIN_DELAY_MS, graceMs: values.DRAIN_GRACE_MS },
    trustProxy: parseTrustProxy(values.TRUST_PROXY),
    metricsToken: values.METRICS_TOKEN,
    metricsPort: values.METRICS_PORT,
    wordLimitFree: values.WORD_LIMIT_FREE,
    conversionThreads: values.CONVERSION_THREADS,
    conversion: {
      warmUp: values.CONVERSION_WARM_UP ?? false,
    },
    jobs: DEFAULT_JOB_SETTINGS,
    role: 'all',
  };
}

/** The start-up line saying where links in mails point, and how to change it. */
export function mailBaseLine(config: Pick<Config, 'publicUrl' | 'publicUrlSet'>): string {
  if (config.publicUrlSet) return `Links in e-mails point to ${config.publicUrl} (PUBLIC_URL)`;
  return (
    `Links in e-mails point to ${config.publicUrl} (PUBLIC_URL is not set: set it to the ` +
    'address people open, or mailed links will not reach this server from elsewhere)'
  );
}

/**
 * The role named on the command line (`--role=web|worker|all`, default all). Splitting roles
 * needs PostgreSQL: the embedded database belongs to one process, which must do everything.
 */
export function roleFromArguments(argv: string[], config: Config): ServerRole {
  const { values } = parseArgs({
    args: argv,
    options: { role: { type: 'string', default: 'all' } },
    strict: false,
  });
  const role = values.role;
  if (!SERVER_ROLES.includes(role as ServerRole)) {
    throw new ConfigError(`Configuration error: --role must be one of ${SERVER_ROLES.join(', ')}`);
  }
  if (role !== 'all' && !config.databaseUrl) {
    throw new ConfigError(
      `Configuration error: --role=${String(role)} needs a PostgreSQL server (DATABASE_URL); the embedded database is one process, which runs with --role=all`,
    );
  }
  return role as ServerRole;
}

function parseTrustProxy(value: string): boolean | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value.replace(/\s+/g, '');
}
