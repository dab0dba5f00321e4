// @ts-nocheck
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
