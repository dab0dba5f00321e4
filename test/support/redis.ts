import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/** The local Redis every Redis-backed test uses. */
export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A random key prefix, so test files can run in parallel against one Redis. */
export function randomPrefix(): string {
  return `mdtest-${randomBytes(6).toString('hex')}`;
}

/** Deletes every key under a prefix. */
export async function deletePrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
}

/** Counts the keys under a prefix. */
export async function countPrefix(redis: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let count = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    cursor = next;
    count += keys.length;
  } while (cursor !== '0');
  return count;
}

export function newRedis(): Redis {
  return new Redis(TEST_REDIS_URL, { lazyConnect: false });
}

/** Every key under a prefix with its type and content: what a test compares before and after an outage. */
export async function snapshotPrefix(redis: Redis, prefix: string): Promise<Record<string, unknown>> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0');
  const snapshot: Record<string, unknown> = {};
  for (const key of keys.sort()) {
    const type = await redis.type(key);
    if (type === 'hash') snapshot[key] = await redis.hgetall(key);
    else if (type === 'zset') snapshot[key] = await redis.zrange(key, '0', '-1', 'WITHSCORES');
    else if (type === 'list') snapshot[key] = await redis.lrange(key, 0, -1);
    else if (type === 'stream') snapshot[key] = await redis.xrange(key, '-', '+');
    else snapshot[key] = await redis.get(key);
  }
  return snapshot;
}
