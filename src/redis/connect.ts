import { Redis } from 'ioredis';
import { StoreUnavailableError } from '../errors.ts';

/** The URL with any password replaced, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/** Options for {@link connectRedis}. */
export interface ConnectOptions {
  connectTimeoutMs?: number;
}

/**
 * Opens a Redis connection and waits until it is ready. Fails fast when Redis cannot be reached:
 * no offline queue (so nothing is written later behind the caller's back) and no retries before
 * the first connection. Once connected, dropped connections are retried with a short backoff.
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
  try {
    await redis.connect();
    await checkDatabase(redis, url);
    ready = true;
    return redis;
  } catch (error) {
    redis.disconnect();
    if (error instanceof StoreUnavailableError) throw error;
    const cause = socketError ?? error;
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new StoreUnavailableError(
      `cannot reach Redis at REDIS_URL=${redactUrl(url)} (${reason}). Start Redis there, correct REDIS_URL, or unset it to keep walkthroughs in memory (lost on exit). Nothing was saved.`,
      { cause: error },
    );
  }
}

/**
 * ioredis sends the URL's `/n` as SELECT n while connecting and, when the server has no database n,
 * reports the connection ready anyway and runs every command on database 0: check it here.
 */
async function checkDatabase(redis: Redis, url: string): Promise<void> {
  const db = redis.options.db ?? 0;
  if (db === 0) return;
  try {
    await redis.select(db);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    // Redis says "ERR DB index is out of range"; anything else is the connection's own trouble.
    if (!/DB index|out of range/i.test(reason)) throw error;
    const count = await redis
      .config('GET', 'databases')
      .then((reply) => `; it has ${(reply as string[])[1]}, numbered from 0`)
      .catch(() => '');
    throw new StoreUnavailableError(
      `REDIS_URL=${redactUrl(url)} names database ${db}, which this Redis server does not have (${reason}${count}). Name a database it has, or leave the number out for database 0. Nothing was saved.`,
      { cause: error },
    );
  }
}

/**
 * A connection for a cache that must never hold a diagnosis up (the model assist's): one retry per
 * command, a short connect time-out, a few reconnects; its errors go to `onError`, and its callers
 * fall back to memory.
 */
export function connectCacheRedis(url: string, onError: (error: unknown) => void): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => (attempt > 3 ? null : 200),
  });
  redis.on('error', onError);
  return redis;
}
