// @ts-nocheck
import type { Config } from '../../config.ts';
import { connectRedis } from './connect.ts';
import { MemoryWalkthroughStore } from './memory.ts';
import { RedisWalkthroughStore } from './redis.ts';
import type { WalkthroughStore } from './types.ts';

/**
 * The store the configuration asks for: Redis when REDIS_URL is set (fails with StoreUnavailableError
 * naming REDIS_URL when it cannot be reached), otherwise memory.
 */
export async function openStore(config: Config): Promise<WalkthroughStore> {
  const ttlSeconds = config.MEMDOCTOR_WALKTHROUGH_TTL_SECONDS;
  if (!config.REDIS_URL) return new MemoryWalkthroughStore({ ttlSeconds });
  const redis = await connectRedis(config.REDIS_URL);
  return new RedisWalkthroughStore(redis, {
    prefix: config.MEMDOCTOR_REDIS_PREFIX,
    ttlSeconds,
    ownsConnection: true,
  });
}
