import { Cluster, type ClusterOptions, Redis } from 'ioredis';
import { messageOf, StoreProblem, StoreUnavailableError } from '../errors.ts';
import type { RedisConnection } from './connection.ts';
import { cannotConnect } from './failure.ts';
import { type ClusterSeeds, type RedisTarget, redactUrl } from './target.ts';

export type { RedisConnection } from './connection.ts';
export { redactUrl } from './target.ts';

/** Options for {@link connectRedis} and {@link connectCluster}. */
export interface ConnectOptions {
  connectTimeoutMs?: number;
  /**
   * Told every error the connection reports, for as long as it lives (the Slack app counts them in
   * GET /metrics); for a cluster, the client's own and each node's ("node error").
   */
  onError?: (error: unknown) => void;
}

/** Sends a connection's errors, and a cluster's node errors, to `onError`. */
export function observeErrors(
  connection: RedisConnection,
  onError: ((error: unknown) => void) | undefined,
): void {
  if (!onError) return;
  connection.on('error', onError);
  if (connection instanceof Cluster) connection.on('node error', onError);
}

/**
 * Opens a Redis connection and waits until it is ready. Fails fast when Redis cannot be reached:
 * no offline queue (so nothing is written later behind the caller's back) and no retries before
 * the first connection. Once connected, dropped connections are retried with a short backoff.
 * A node of a Redis Cluster is refused: it would answer most keys with MOVED.
 */
export async function connectRedis(url: string, options: ConnectOptions = {}): Promise<Redis> {
  let ready = false;
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    connectTimeout: options.connectTimeoutMs ?? 3000,
    maxRetriesPerRequest: 2,
    retryStrategy: (times) => (ready ? Math.min(times * 200, 2000) : null),
  });
  // Failures surface as rejected commands; without a listener ioredis would report them as unhandled.
  // The socket error (ECONNREFUSED...) says more than connect()'s "Connection is closed", so keep it.
  let socketError: unknown;
  redis.on('error', (error) => {
    socketError ??= error;
  });
  observeErrors(redis, options.onError);
  const target: RedisTarget = { kind: 'server', url };
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw cannotConnect(error, target, messageOf(socketError ?? error));
  }
  const clusterMode = await inClusterMode(redis);
  if (clusterMode) {
    redis.disconnect();
    throw cannotConnect(undefined, target, clusterMode);
  }
  const missing = await missingDatabase(redis, url);
  if (missing) {
    redis.disconnect();
    throw missing;
  }
  ready = true;
  return redis;
}

/**
 * ioredis sends the URL's `/n` as SELECT n while connecting and, when the server has no database n,
 * reports the connection ready anyway and runs every command on database 0: check it here.
 */
async function missingDatabase(redis: Redis, url: string): Promise<StoreUnavailableError | undefined> {
  const db = redis.options.db ?? 0;
  if (db === 0) return undefined;
  const reason = await redis.select(db).then(
    () => undefined,
    (error: unknown) => messageOf(error),
  );
  // Redis says "ERR DB index is out of range"; anything else is the connection's own trouble.
  if (reason === undefined || !/DB index|out of range/i.test(reason)) return undefined;
  const count = await redis
    .config('GET', 'databases')
    .then((reply) => `; it has ${(reply as string[])[1]}, numbered from 0`)
    .catch(() => '');
  return new StoreUnavailableError(
    StoreProblem.Refused,
    reason,
    `REDIS_URL=${redactUrl(url)} names database ${db}, which this Redis server does not have (${reason}${count}). Name a database it has, or leave the number out for database 0. Nothing was saved.`,
  );
}

/** Why a server cannot serve as REDIS_URL because it is a cluster node, or undefined. */
async function inClusterMode(redis: Redis): Promise<string | undefined> {
  const info = await redis.info('cluster').catch(() => '');
  return /^cluster_enabled:1\b/m.test(info)
    ? 'the server runs in cluster mode (cluster_enabled:1)'
    : undefined;
}

function clusterOptions(seeds: ClusterSeeds, connectTimeout: number, retries = 2): ClusterOptions {
  return {
    lazyConnect: true,
    enableOfflineQueue: false,
    // "ready" only once CLUSTER INFO says cluster_state:ok.
    enableReadyCheck: true,
    slotsRefreshTimeout: connectTimeout,
    redisOptions: {
      connectTimeout,
      maxRetriesPerRequest: retries,
      ...(seeds.username ? { username: seeds.username } : {}),
      ...(seeds.password ? { password: seeds.password } : {}),
      ...(seeds.tls ? { tls: {} } : {}),
    },
    // With TLS the certificate names the host: connect by the name given, not a resolved address.
    ...(seeds.tls ? { dnsLookup: (address, callback) => callback(null, address) } : {}),
  };
}

/**
 * Opens a Redis Cluster client from its seed nodes and waits until the cluster is ready
 * (cluster_state:ok). As for one server: no offline queue, no retries before the first connection.
 * When it cannot start, one seed is asked directly why (down, cluster_state:fail, not a cluster).
 */
export async function connectCluster(seeds: ClusterSeeds, options: ConnectOptions = {}): Promise<Cluster> {
  let ready = false;
  const connectTimeout = options.connectTimeoutMs ?? 3000;
  const cluster = new Cluster(seeds.nodes, {
    ...clusterOptions(seeds, connectTimeout),
    clusterRetryStrategy: (times) => (ready ? Math.min(times * 200, 2000) : null),
  });
  cluster.on('error', () => undefined);
  observeErrors(cluster, options.onError);
  try {
    await cluster.connect();
    ready = true;
    return cluster;
  } catch (error) {
    cluster.disconnect();
    const reason = (await askSeed(seeds, connectTimeout)) ?? messageOf(error);
    throw cannotConnect(error, { kind: 'cluster', seeds }, reason);
  }
}

/** What the first seed that answers says about its cluster, when that explains a failed start. */
async function askSeed(seeds: ClusterSeeds, connectTimeout: number): Promise<string | undefined> {
  for (const node of seeds.nodes) {
    const redis = new Redis({
      ...node,
      ...clusterOptions(seeds, connectTimeout).redisOptions,
      lazyConnect: true,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
    redis.on('error', () => undefined);
    try {
      await redis.connect();
      const info = String(await redis.cluster('INFO'));
      const state = /cluster_state:(\w+)/.exec(info)?.[1];
      if (state && state !== 'ok') return `${node.host}:${node.port} reports cluster_state:${state}`;
    } catch (error) {
      if (redis.status === 'ready') return messageOf(error);
    } finally {
      redis.disconnect();
    }
  }
  return undefined;
}

/** Connects to what the configuration names: one server or a cluster. */
export function connectTo(target: RedisTarget, options: ConnectOptions = {}): Promise<RedisConnection> {
  return target.kind === 'server' ? connectRedis(target.url, options) : connectCluster(target.seeds, options);
}

/**
 * A connection for a cache that must never hold a diagnosis up (the model assist's): one retry per
 * command, a short connect time-out, a few reconnects; its errors go to `onError`, and its callers
 * fall back to memory.
 */
export function connectCacheRedis(target: RedisTarget, onError: (error: unknown) => void): RedisConnection {
  const retry = (attempt: number) => (attempt > 3 ? null : 200);
  const redis =
    target.kind === 'server'
      ? new Redis(target.url, { maxRetriesPerRequest: 1, connectTimeout: 2_000, retryStrategy: retry })
      : new Cluster(target.seeds.nodes, {
          ...clusterOptions(target.seeds, 2_000, 1),
          enableOfflineQueue: true,
          lazyConnect: false,
          clusterRetryStrategy: retry,
        });
  observeErrors(redis, onError);
  return redis;
}

/** The target a connection was opened to, for messages when the caller did not say (tests). */
export function targetOf(connection: RedisConnection): RedisTarget {
  if (connection instanceof Cluster) {
    const nodes = connection.nodes().map((n) => ({ host: n.options.host ?? '?', port: n.options.port ?? 0 }));
    return { kind: 'cluster', seeds: { nodes, tls: false } };
  }
  const { host, port, db } = connection.options;
  return { kind: 'server', url: `redis://${host}:${port}/${db ?? 0}` };
}
