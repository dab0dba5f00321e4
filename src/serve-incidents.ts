import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { App } from '@slack/bolt';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { backoffMs, START_BACKOFF } from './incidents/backoff.ts';
import { MemoryIncidentQueue } from './incidents/memory.ts';
import type { IncidentQueue } from './incidents/queue.ts';
import { RedisIncidentQueue } from './incidents/redis.ts';
import type { AlertIntake } from './incidents/types.ts';
import { IncidentWorker } from './incidents/worker.ts';
import type { RedisConnection } from './redis/connect.ts';
import { alertHandler } from './slack/alert-handler.ts';
import { AlertMetrics } from './slack/alert-metrics.ts';
import type { SlackDeps } from './slack/deps.ts';

/**
 * What the incidents need of the Slack app serve.ts builds (its SlackService), said here so that
 * serve.ts can import this file without a cycle.
 */
export interface IncidentsHost {
  app: App;
  deps: SlackDeps;
  redis?: RedisConnection;
  stop(): Promise<void>;
  abandon(): Promise<void>;
}

const MEMORY_INTAKE_WARNING =
  'REDIS_URL is not set: accepted alerts wait in this process only. An alert accepted and not yet posted is lost on restart, and each replica posts its own threads; set REDIS_URL (or REDIS_CLUSTER_NODES) for production.';

/** The intake the receivers hand alerts to, and the worker that posts them, until `stop`. */
export interface Incidents {
  intake: AlertIntake;
  queue: IncidentQueue;
  /** Stops taking alerts and waits for those in hand; the queue's connection is the app's. */
  stop(): Promise<void>;
}

/**
 * Slack's auth.test, asked until it answers: a worker that never started would leave every alert the
 * receivers take (and answer 2xx for) waiting unposted until a restart. Undefined once `signal` aborts.
 */
async function whoAmI(app: App, log: Logger, signal: AbortSignal) {
  for (let attempt = 1; !signal.aborted; attempt += 1) {
    try {
      return await app.client.auth.test();
    } catch (error) {
      const retryInMs = backoffMs(START_BACKOFF, attempt);
      log.error({ err: String(error), retryInMs }, 'alert worker not started yet: auth.test failed');
      await sleep(retryInMs, undefined, { signal }).catch(() => {});
    }
  }
  return undefined;
}

/** This process's name in the consumer group: the host (a pod's name) and pid, and a few random bytes. */
function consumerName(): string {
  return `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

function openQueue(config: Config, redis: RedisConnection | undefined, log: Logger): IncidentQueue {
  if (redis)
    return new RedisIncidentQueue(redis, {
      prefix: config.MEMDOCTOR_REDIS_PREFIX,
      onUnreadable: (id, reason) =>
        log.error({ entry: id, err: reason }, 'stored alert unreadable: kept as a dead letter'),
    });
  log.warn(MEMORY_INTAKE_WARNING);
  return new MemoryIncidentQueue();
}

/**
 * The alert intake of `memdoctor serve` (issue 38): Redis when the app has its Redis connection,
 * memory otherwise, and the worker that turns each accepted alert into its incident's thread. The
 * worker starts once Slack has said which workspace and bot it is (auth.test, asked again with
 * backoff until it answers); alerts accepted before that wait in the queue. Hand `intake` to
 * mountAlertReceivers (src/alerts).
 */
export function openIncidents(service: IncidentsHost, config: Config, log: Logger): Incidents {
  const alertLog = log.child({ module: 'incidents' });
  const queue = openQueue(config, service.redis, alertLog);
  const registry = service.deps.metrics?.registry;
  const metrics = registry ? new AlertMetrics(registry, () => queue.backlog()) : undefined;
  let worker: IncidentWorker | undefined;
  const stopping = new AbortController();
  const started = whoAmI(service.app, alertLog, stopping.signal).then((who) => {
    if (!who || stopping.signal.aborted) return;
    const handle = alertHandler({ ...service.deps, log: alertLog }, service.app.client, {
      incidents: queue,
      workspace: who.team_id ?? '',
      owner: who.user_id ?? '',
      ...(metrics ? { metrics } : {}),
    });
    worker = new IncidentWorker(queue, handle, {
      consumer: consumerName(),
      log: alertLog,
      events: {
        retried: (d) => metrics?.retries.inc({ route: d.alert.route }),
        deadLettered: (d) => metrics?.deadLetters.inc({ route: d.alert.route }),
      },
    });
    worker.start();
    alertLog.info({ intake: queue.kind, workspace: who.team_id }, 'alert worker started');
  });
  started.catch((error: unknown) => alertLog.error({ err: String(error) }, 'alert worker not started'));
  return {
    intake: queue,
    queue,
    async stop() {
      // Not waiting for an auth.test in flight (the client retries one for minutes): once aborted,
      // its answer starts nothing.
      stopping.abort();
      await worker?.stop();
      alertLog.info('alert worker stopped');
    },
  };
}

/**
 * The intake `startSlack` hands the receivers (src/serve.ts), its worker stopped before the app's own
 * stop closes the Redis connection they share.
 */
export function alertIntakeOf(service: IncidentsHost, config: Config, log: Logger): AlertIntake {
  const incidents = openIncidents(service, config, log);
  const { stop, abandon } = service;
  service.stop = async () => {
    await incidents.stop();
    await stop();
  };
  service.abandon = async () => {
    await Promise.allSettled([incidents.stop()]);
    await abandon();
  };
  return incidents.intake;
}
