import type { Server } from 'node:http';
import type { App } from '@slack/bolt';
import type { Logger } from 'pino';
import { type AlertsConfig, loadAlertsConfig } from './alerts/config.ts';
import { AlertMetrics } from './alerts/metrics.ts';
import { mountAlertReceivers } from './alerts/mount.ts';
import type { SnsTransport } from './alerts/sns.ts';
import { type Config, enginePoolSettings, loadConfig, redisTarget, secretFromEnv } from './config.ts';
import { SNS_OVER_HTTPS } from './connectors/sns-https.ts';
import { MemoryEventDedupe } from './dedupe/event-dedupe.ts';
import { RedisEventDedupe } from './dedupe/redis.ts';
import type { Playbook } from './engine/playbook/schema.ts';
import { ConfigInvalidError } from './errors.ts';
import type { AlertIntake } from './incidents/types.ts';
import type { LlmAssist } from './llm/assist.ts';
import { createLogger } from './log.ts';
import { connectTo, type RedisConnection } from './redis/connect.ts';
import { redisHealth } from './redis/health.ts';
import { RedisKeys } from './redis/keys.ts';
import { alertIntakeOf } from './serve-incidents.ts';
import { openAssist } from './setup/assist.ts';
import { memoryCases } from './setup/cases.ts';
import { configuredFetching } from './setup/connectors.ts';
import { EnginePool } from './setup/engine-pool.ts';
import { HeapPool } from './setup/heap-pool.ts';
import { openOutcomes } from './setup/outcomes.ts';
import { configuredPlaybooks } from './setup/playbooks.ts';
import { redisCases } from './setup/redis-cases.ts';
import { openWalkthroughs } from './setup/walkthroughs.ts';
import { createSlackApp } from './slack/app.ts';
import type { Health, SlackDeps } from './slack/deps.ts';
import { allowedFileHosts } from './slack/download.ts';
import { InflightBytes } from './slack/inflight.ts';
import { SlackMetrics } from './slack/metrics.ts';
import { type MetricsServer, startMetricsServer } from './slack/metrics-server.ts';
import { OncallPolicy } from './slack/oncall.ts';
import { listen, stopOnSignals } from './slack/start.ts';
import { checkIdProblem } from './usecases/connectors.ts';
import type { WalkthroughService } from './walkthrough/index.ts';

/**
 * The Slack app's composition root: it builds the stores (one Redis connection or memory), the
 * diagnosis pool, the playbooks and the model assist from the configuration, and hands them to
 * src/slack, which only registers listeners on what it is given.
 */

const MEMORY_WARNING =
  'REDIS_URL is not set: walkthroughs and event dedupe live in this process only. They are lost on restart and other replicas will not see them; set REDIS_URL (or REDIS_CLUSTER_NODES) for production.';

/** What startSlack builds from the configuration before wiring the app. */
export interface SlackResources {
  playbooks: readonly Playbook[];
  walkthroughs: WalkthroughService;
  /** Set with REDIS_URL or REDIS_CLUSTER_NODES: walkthroughs, event dedupe, the model cache and the health check share it. */
  redis?: RedisConnection;
}

/**
 * Opens what the app keeps state in, from the configuration: one Redis connection (a server or a
 * cluster) shared by everything, or memory with a warning.
 */
export async function openSlackResources(
  config: Config,
  log: Logger,
  onRedisError?: (error: unknown) => void,
): Promise<SlackResources> {
  const playbooks = configuredPlaybooks(config);
  const target = redisTarget(config);
  const redis = target ? await connectTo(target, onRedisError ? { onError: onRedisError } : {}) : undefined;
  if (!redis) log.warn(MEMORY_WARNING);
  const walkthroughs = await openWalkthroughs(config, log, redis);
  return { playbooks, walkthroughs, ...(redis ? { redis } : {}) };
}

/** The model assist when one is configured; a configuration error turns it off with a warning. */
function modelAssist(config: Config, log: Logger, redis: RedisConnection | undefined): LlmAssist | undefined {
  const { assist, off } = openAssist(config, {
    log,
    keyPrefix: config.MEMDOCTOR_REDIS_PREFIX,
    ...(redis ? { redis } : {}),
  });
  if (off) log.warn({ err: off }, 'model assist off');
  return assist;
}

/** Builds the listeners' dependencies: settings, dedupe (Redis or memory), on-call policy, health. */
export function buildDeps(config: Config, log: Logger, resources: SlackResources): SlackDeps {
  const token = config.SLACK_BOT_TOKEN;
  if (!token) throw new ConfigInvalidError('SLACK_BOT_TOKEN is not set; the Slack app needs it.');
  const { playbooks, walkthroughs, redis } = resources;
  const health = async (): Promise<Health> => {
    if (!redis) return { ok: true, store: 'memory', playbooks: playbooks.length };
    const { up, cluster } = await redisHealth(redis);
    return {
      ok: up,
      store: 'redis',
      redis: up ? 'up' : 'down',
      ...(cluster ? { cluster } : {}),
      playbooks: playbooks.length,
    };
  };
  const assist = modelAssist(config, log, redis);
  return {
    settings: {
      botToken: token,
      maxUploadBytes: config.MEMDOCTOR_MAX_UPLOAD_BYTES,
      maxExpandedBytes: config.MEMDOCTOR_MAX_EXPANDED_BYTES,
      fileHosts: allowedFileHosts(config.SLACK_API_URL),
      allowHttpLoopback: config.MEMDOCTOR_ALLOW_HTTP_LOOPBACK,
    },
    playbooks,
    dedupe: redis
      ? new RedisEventDedupe(redis, new RedisKeys(config.MEMDOCTOR_REDIS_PREFIX))
      : new MemoryEventDedupe(),
    walkthroughs,
    cases: redis ? redisCases(config, redis) : memoryCases(config),
    outcomes: openOutcomes(config, redis),
    oncall: new OncallPolicy(config.MEMDOCTOR_ONCALL_USERS, config.MEMDOCTOR_ONCALL_GROUP),
    log,
    health,
    ...(assist ? { assist } : {}),
    ...configuredFetching(config, log, redis),
  };
}

/** The Slack app built from the configuration, not yet listening. */
export interface SlackService {
  app: App;
  deps: SlackDeps;
  /** The one Redis connection, when the configuration names one. */
  redis?: RedisConnection;
  /** Stops the app, the pool and the store, and closes the Redis connection. */
  stop(): Promise<void>;
  /** The same after a failed start: everything is let go, whatever fails. */
  abandon(): Promise<void>;
}

/** GET /metrics on its own listener when MEMDOCTOR_METRICS_PORT is set (loopback by default). */
async function openMetricsServer(
  config: Config,
  metrics: SlackMetrics,
  log: Logger,
): Promise<MetricsServer | undefined> {
  if (config.MEMDOCTOR_METRICS_PORT === undefined) return undefined;
  const token = config.MEMDOCTOR_METRICS_TOKEN;
  const where = { host: config.MEMDOCTOR_METRICS_HOST, port: config.MEMDOCTOR_METRICS_PORT };
  const server = await startMetricsServer(metrics, { ...where, ...(token ? { token } : {}) });
  log.info({ host: where.host, port: server.port, token: token !== undefined }, 'metrics listening');
  return server;
}

/** The diagnosis threads; a thread that dies holding no input is counted and logged, never fatal. */
function openEnginePool(config: Config, playbooks: readonly Playbook[], metrics: SlackMetrics, log: Logger) {
  return new EnginePool({
    playbooks,
    ...enginePoolSettings(config),
    onThreadError: (error) => {
      metrics.engineThreadErrors.inc();
      log.error({ err: error.message }, 'diagnosis thread died holding no input');
    },
  });
}

/** What a SlackService lets go of, in order when stopping and all at once when a start failed. */
interface Held {
  app: App;
  pool: EnginePool;
  heapPool: HeapPool;
  walkthroughs: WalkthroughService;
  scrapes: MetricsServer | undefined;
  redis: RedisConnection | undefined;
}

function stoppers({
  app,
  pool,
  heapPool,
  walkthroughs,
  scrapes,
  redis,
}: Held): Pick<SlackService, 'stop' | 'abandon'> {
  const stop = async () => {
    await app.stop();
    await scrapes?.close();
    await pool.close();
    await heapPool.close();
    await walkthroughs.close();
    await redis?.quit().catch(() => redis.disconnect());
  };
  const abandon = async () => {
    await Promise.allSettled([
      app.stop(),
      pool.close(),
      heapPool.close(),
      walkthroughs.close(),
      scrapes?.close(),
    ]);
    redis?.disconnect();
  };
  return { stop, abandon };
}

/**
 * Builds the Slack app from the configuration: one Redis connection (walkthroughs, dedupe, outcomes
 * and the model cache share it) whose errors, and a cluster's node errors, are counted from the
 * moment it opens; the diagnosis pool; the metrics.
 */
export async function buildSlackService(config: Config, log: Logger): Promise<SlackService> {
  const { SLACK_BOT_TOKEN: botToken, SLACK_SIGNING_SECRET: signingSecret } = config;
  if (!botToken || !signingSecret)
    throw new ConfigInvalidError(
      'SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET must both be set to run the Slack app.',
    );
  let engines: EnginePool | undefined;
  const metrics = new SlackMetrics(() => engines?.waiting ?? 0);
  const resources = await openSlackResources(config, log, () =>
    metrics.redisErrors.inc({ source: 'connection' }),
  );
  const { walkthroughs, redis, playbooks } = resources;
  const pool = openEnginePool(config, playbooks, metrics, log);
  engines = pool;
  const inflight = new InflightBytes(config.MEMDOCTOR_MAX_INFLIGHT_BYTES, undefined, (held) =>
    metrics.inflightChanged(held),
  );
  // Heap dumps get their own thread: one may take minutes, and the logs keep their threads meanwhile.
  const budgetBytes = config.MEMDOCTOR_HEAP_DUMP_BUDGET;
  const heapPool = new HeapPool({ playbooks, budgetBytes });
  const heapDumps = { run: heapPool.run.bind(heapPool), budgetBytes, full: () => heapPool.full };
  const deps = { ...buildDeps(config, log, resources), engines: pool, heapDumps, metrics, inflight };
  const scrapes = await openMetricsServer(config, metrics, log);
  const app = createSlackApp(deps, {
    botToken,
    signingSecret,
    port: config.PORT,
    ...(config.MEMDOCTOR_METRICS_TOKEN ? { metricsToken: config.MEMDOCTOR_METRICS_TOKEN } : {}),
    ...(config.SLACK_APP_TOKEN ? { appToken: config.SLACK_APP_TOKEN } : {}),
    ...(config.SLACK_API_URL ? { slackApiUrl: config.SLACK_API_URL } : {}),
  });
  const held = { app, pool, heapPool, walkthroughs, scrapes, redis };
  return { app, deps, ...stoppers(held), ...(redis ? { redis } : {}) };
}

/** The alert receivers MEMDOCTOR_ALERTS asks for: its routing file, and the intake they hand alerts to. */
export interface AlertReceivers {
  config: AlertsConfig;
  intake: AlertIntake;
  /** How SNS certificates are fetched and subscriptions confirmed; AWS over HTTPS unless a test trusts its own. */
  sns?: SnsTransport;
}

/**
 * The routing file MEMDOCTOR_ALERTS names, read and checked before anything starts, or undefined when
 * it is unset (then nothing about the app changes). The receivers live on the HTTP receiver's server.
 */
export function alertsConfigOf(
  config: Config,
  secret: (name: string) => string | undefined = (name) => secretFromEnv(name),
): AlertsConfig | undefined {
  if (!config.MEMDOCTOR_ALERTS) return undefined;
  if (config.SLACK_APP_TOKEN)
    throw new ConfigInvalidError(
      'MEMDOCTOR_ALERTS needs the HTTP transport: the alert receivers are served on PORT beside /slack/events. Unset SLACK_APP_TOKEN (Socket Mode) to serve them.',
    );
  return loadAlertsConfig(config.MEMDOCTOR_ALERTS, secret);
}

/** The app as `listen` starts it, keeping hold of the HTTP server it opens. */
function keepingServer(app: App, opened: (server: Server) => void): App {
  return {
    start: async (port: number) => {
      const server = (await app.start(port)) as Server;
      opened(server);
      return server;
    },
  } as unknown as App;
}

/**
 * Starts the app on PORT; with alert receivers, mounts them on its HTTP server ahead of Bolt, their
 * counters on the registry /metrics serves and their ids checked against the configured connectors.
 */
export async function listenWithAlerts(
  service: SlackService,
  port: number,
  log: Logger,
  alerts: AlertReceivers | undefined,
): Promise<void> {
  if (!alerts) return listen(service, port);
  const metrics = service.deps.metrics;
  if (!metrics)
    throw new ConfigInvalidError(
      'the alert receivers count their requests in the app metrics, which are off',
    );
  const connectors = service.deps.connectors ?? {};
  const mount = (server: Server) =>
    mountAlertReceivers(server, {
      config: alerts.config,
      intake: alerts.intake,
      metrics: new AlertMetrics(metrics.registry),
      logger: log.child({ module: 'alerts' }),
      idCheck: (connector, id) => checkIdProblem(connector, id, connectors),
      sns: alerts.sns ?? SNS_OVER_HTTPS,
    });
  await listen({ app: keepingServer(service.app, mount), abandon: service.abandon }, port);
  log.info(
    { file: alerts.config.file, receivers: Object.keys(alerts.config.receivers) },
    'alert receivers mounted',
  );
}

/**
 * Starts the Slack bot: HTTP on PORT (/slack/events, /healthz), or Socket Mode with SLACK_APP_TOKEN.
 * Redis (REDIS_URL or REDIS_CLUSTER_NODES) holds walkthroughs and event dedupe, so any replica can
 * serve any request. With MEMDOCTOR_ALERTS, the alert receivers too, handing alerts to the durable
 * intake (src/serve-incidents.ts) whose worker posts each incident's thread.
 */
export async function startSlack(config: Config): Promise<void> {
  const log = createLogger(config.LOG_LEVEL).child({ module: 'slack' });
  const alertsConfig = alertsConfigOf(config);
  const service = await buildSlackService(config, log);
  const alerts = alertsConfig
    ? { config: alertsConfig, intake: alertIntakeOf(service, config, log) }
    : undefined;
  await listenWithAlerts(service, config.PORT, log, alerts);
  const transport = config.SLACK_APP_TOKEN ? 'socket-mode' : 'http';
  log.info(
    { port: config.PORT, transport, store: service.deps.walkthroughs.storeKind },
    'memdoctor Slack app started',
  );
  stopOnSignals(service.stop, log);
}

/**
 * `memdoctor serve`: the Slack app, and only the Slack app. Without its credentials startSlack stops
 * with a message naming them, instead of falling back to the console as `npm start` does, so a
 * container without secrets fails visibly rather than exiting 0.
 */
export async function serve(): Promise<number> {
  try {
    await startSlack(loadConfig());
    return 0;
  } catch (error) {
    // The CLI prints the message and sets the exit code; what a failed start leaves behind (the
    // Slack client retrying its token check for minutes) must not keep the process up after that.
    setTimeout(() => process.exit(2), 500).unref();
    throw error;
  }
}
