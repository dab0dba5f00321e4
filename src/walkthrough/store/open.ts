import { connectRedis } from '../../redis/connect.ts';
import { MemoryWalkthroughStore } from './memory.ts';
import { RedisWalkthroughStore } from './redis.ts';
import type { WalkthroughStore } from './types.ts';

/** Where walkthroughs are kept: the few settings a store needs, not the whole configuration. */
export interface StoreSettings {
  /** Redis when set (REDIS_URL); memory otherwise. */
  redisUrl?: string;
  /** Prefix of every Redis key (MEMDOCTOR_REDIS_PREFIX). */
  prefix?: string;
  /** How long an idle walkthrough is kept (MEMDOCTOR_WALKTHROUGH_TTL_SECONDS). */
  ttlSeconds?: number;
}

/**
 * Redis when a URL is given (fails with StoreUnavailableError naming REDIS_URL when it cannot be
 * reached), otherwise memory.
 */
export async function openStore(settings: StoreSettings = {}): Promise<WalkthroughStore> {
  const { ttlSeconds } = settings;
  if (!settings.redisUrl) return new MemoryWalkthroughStore({ ttlSeconds });
  const redis = await connectRedis(settings.redisUrl);
  return new RedisWalkthroughStore(redis, { prefix: settings.prefix, ttlSeconds, ownsConnection: true });
}
