// @ts-nocheck
import { Redis } from 'ioredis';
import { StoreUnavailableError } from '../../errors.ts';

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
    ready = true;
    return redis;
  } catch (error) {
    redis.disconnect();
    const cause = socketError ?? error;
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new StoreUnavailableError(
      `cannot reach Redis at REDIS_URL=${redactUrl(url)} (${reason}). Start Redis there, correct REDIS_URL, or unset it to keep walkthroughs in memory (lost on exit). Nothing was saved.`,
      { cause: error },
    );
  }
}
