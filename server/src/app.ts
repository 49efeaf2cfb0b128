import fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { LOGIN_THROTTLE } from '@margins/common';
import { sessionSecrets, type Config } from './config.ts';
import type { AppContext } from './context.ts';
import type { Database } from './db/index.ts';
import { EventBus } from './events/bus.ts';
import { defineJobs } from './jobs/index.ts';
import { ConversionPool } from './jobs/conversion-pool.ts';
import { JobQueue } from './jobs/queue.ts';
import { Lifecycle } from './launch/lifecycle.ts';
import { DevLog } from './plugins/dev-log.ts';
import { sharedSessionSecret } from './launch/server-secrets.ts';
import { Mailer } from './lib/mail.ts';
import { FORM_FIELD_LIMIT } from './lib/multipart-fields.ts';
import { RateLimiter } from './lib/rate-limit.ts';
import { FailureThrottle } from './lib/throttle.ts';
import { registerCsrf } from './plugins/csrf.ts';
import { handleFrameworkError, registerErrorHandling } from './plugins/errors.ts';
import { registerInputGuard } from './plugins/input-guard.ts';
import { registerLinkBase } from './plugins/link-base.ts';
import { AppMetrics, registerMetrics, registerWorkerListener } from './plugins/metrics.ts';
import { registerRequestId, RequestLog } from './plugins/request-log.ts';
import { requestIdMixin, requestIdOf } from './lib/request-context.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerSession } from './plugins/session.ts';
import { registerStatic } from './plugins/static.ts';
import { registerFeatures } from './modules/features/plugin.ts';
import { registerWire } from './plugins/wire.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { contactRoutes } from './modules/contact/routes.ts';
import { devMailRoutes } from './modules/dev-mail/routes.ts';
import { genreRoutes } from './modules/genres/routes.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { manuscriptRoutes } from './modules/manuscripts/routes.ts';
import { inviteRoutes } from './modules/invites/routes.ts';
import { bookmarkRoutes } from './modules/bookmarks/routes.ts';
import { surveyRoutes } from './modules/surveys/routes.ts';
import { mediaRoutes } from './modules/media/routes.ts';
import { pageRoutes } from './modules/pages/routes.ts';
import { profileRoutes } from './modules/profile/routes.ts';
import { commentRoutes } from './modules/comments/routes.ts';
import { threadRoutes } from './modules/comments/thread-routes.ts';
import { exportRoutes } from './modules/exports/routes.ts';
import { discoverRoutes } from './modules/discover/routes.ts';
import { adminRoutes } from './modules/admin/routes.ts';
import { registerPaymentRoutes } from './modules/payments/index.ts';
import { insightsRoutes } from './modules/insights/routes.ts';
import { scheduleHighlightSweep } from './modules/comments/sweep.ts';
import { COMMENT_WRITES_PER_MINUTE } from './modules/comments/write-limit.ts';
import { subscribeNotifications } from './modules/notifications/subscribers.ts';
import {
  scheduleReplyDigests,
  subscribeReplyNotifications,
} from './modules/notifications/reply-digest.ts';
import { Realtime } from './realtime/index.ts';
import { subscribeRealtime } from './realtime/subscribers.ts';
import { subscribeModerationRealtime } from './realtime/moderation-subscribers.ts';
import { subscribeModeration } from './modules/moderation/subscribers.ts';
import { accessEventRows } from './modules/access/event-rows.ts';
import { commentEventRows } from './modules/comments/event-rows.ts';
import { moderationEventRows } from './modules/moderation/event-rows.ts';
import { subscribeReadAccessCache } from './modules/bookmarks/read-access-cache.ts';
import { startPhase } from './start-timing.ts';
import { subscribeSessionCache } from './modules/auth/session-cache.ts';

export type App = FastifyInstance;

/** Builds the whole HTTP application on an open database; does not listen (tests inject). */
export async function buildApp(given: Config, database: Database): Promise<FastifyInstance> {
  // No SESSION_SECRET (outside production): the one every process on this database shares.
  const config = given.sessionSecret
    ? given
    : { ...given, sessionSecret: await sharedSessionSecret(database.db, given.dataDir) };
  const app = fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.cookie', 'req.headers["x-csrf-token"]'],
            mixin: requestIdMixin,
            // JSON lines in production; readable ones at a terminal otherwise (dev-log.ts).
            ...(config.env === 'development' ? { stream: new DevLog() } : {}),
          },
    trustProxy: config.trustProxy,
    genReqId: requestIdOf,
    logController: new RequestLog({ quiet: config.env !== 'production' }),
    bodyLimit: 1024 * 1024,
    frameworkErrors: handleFrameworkError,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Kept here with their classes: the modules see them through the interfaces of context.ts.
  const jobs = new JobQueue(database, config.jobs, app.log);
  const realtime = new Realtime();
  const events = new EventBus();
  const metrics = new AppMetrics({ database, jobs, realtime, log: app.log });
  const ctx: AppContext = {
    config,
    log: app.log,
    database,
    db: database.db,
    mailer: new Mailer(database.db, config, app.log),
    jobs,
    converter: new ConversionPool(config.conversionThreads),
    realtime,
    events,
    lifecycle: new Lifecycle(),
    metrics,
    limits: {
      loginPerIp: new FailureThrottle(database.db, 'login-ip', {
        ...LOGIN_THROTTLE,
        freeFailures: LOGIN_THROTTLE.freeFailuresPerIp,
      }),
      loginPerAccount: new FailureThrottle(database.db, 'login-account', {
        ...LOGIN_THROTTLE,
        freeFailures: LOGIN_THROTTLE.freeFailuresPerAccount,
      }),
      signupPerIp: new RateLimiter(
        database.db,
        'signup-ip',
        config.signupLimitPerHour,
        60 * 60_000,
      ),
      mailPerAccount: new RateLimiter(database.db, 'mail', 5, 60 * 60_000),
      // Every highlight, comment, vote and report counts: on the embedded database (one
      // process) without a statement each.
      commentWritesPerUser: new RateLimiter(
        database.db,
        'comment-writes',
        COMMENT_WRITES_PER_MINUTE,
        60_000,
        { inProcess: database.kind === 'pglite' },
      ),
    },
  };
  app.decorate('ctx', ctx);
  events.attach(ctx);
  subscribeRealtime(events, realtime);
  subscribeNotifications(events);
  subscribeModerationRealtime(events, realtime);
  subscribeModeration(events);
  subscribeReplyNotifications(events);
  subscribeReadAccessCache(events);
  subscribeSessionCache(events);
  // How each module's events' rows are read back when a crash left them undispatched.
  events.rowReaders.register(accessEventRows);
  events.rowReaders.register(commentEventRows);
  events.rowReaders.register(moderationEventRows);
  app.addHook('onClose', async () => ctx.mailer.close());
  app.addHook('onClose', async () => {
    await events.settled();
    await jobs.stop();
    await ctx.converter.close();
  });

  await app.register(cookie, { secret: sessionSecrets(config) });
  await registerSecurityHeaders(app);
  await registerWire(app);
  await app.register(formbody);
  await app.register(multipart, {
    limits: { fileSize: 50 * 1024 * 1024, files: 1, fields: FORM_FIELD_LIMIT },
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Margins API', version: '1.0.0' },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'margins_session' },
          csrf: { type: 'apiKey', in: 'header', name: 'x-csrf-token' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });

  registerMetrics(app, metrics);
  if (config.role === 'worker') registerWorkerListener(app);
  registerRequestId(app);
  registerErrorHandling(app);
  registerInputGuard(app);
  registerCsrf(app);
  registerSession(app);
  await registerFeatures(app);
  registerLinkBase(app);
  await registerStatic(app);

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(healthRoutes);
  await app.register(pageRoutes);
  await app.register(authRoutes);
  await app.register(profileRoutes);
  await app.register(genreRoutes);
  await app.register(contactRoutes);
  await app.register(mediaRoutes);
  await app.register(devMailRoutes);
  await app.register(manuscriptRoutes);
  await app.register(inviteRoutes);
  await app.register(bookmarkRoutes);
  await app.register(surveyRoutes);
  await app.register(commentRoutes);
  await app.register(threadRoutes);
  await app.register(exportRoutes);
  await app.register(discoverRoutes);
  await app.register(adminRoutes);
  await registerPaymentRoutes(app);
  await app.register(insightsRoutes);
  await realtime.attach(app);
  startPhase('routes-registered');

  defineJobs(jobs);
  // A web process only enqueues: the jobs run in --role=worker processes.
  await jobs.start(ctx, { work: config.role !== 'web' });
  startPhase('jobs-started');
  if (config.role !== 'web') {
    const stopSweep = scheduleHighlightSweep(ctx, (error) =>
      app.log.error({ err: error }, 'highlight sweep failed'),
    );
    app.addHook('onClose', async () => stopSweep());
    const stopDigests = scheduleReplyDigests(ctx, (error) =>
      app.log.error({ err: error }, 'reply digest failed'),
    );
    app.addHook('onClose', async () => stopDigests());
  }

  return app;
}
