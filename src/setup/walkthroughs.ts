import type { Logger } from 'pino';
import { type Config, redisTarget } from '../config.ts';
import type { RedisConnection } from '../redis/connect.ts';
import { openStore, type StoreSettings, WalkthroughService } from '../walkthrough/index.ts';

/** The store settings the configuration names. */
export function storeSettings(config: Config): StoreSettings {
  const redis = redisTarget(config);
  return {
    ...(redis ? { redis } : {}),
    prefix: config.MEMDOCTOR_REDIS_PREFIX,
    ttlSeconds: config.MEMDOCTOR_WALKTHROUGH_TTL_SECONDS,
  };
}

/**
 * The walkthrough service over the configured store (Redis with REDIS_URL or REDIS_CLUSTER_NODES,
 * else memory); `connection` shares one already open to that Redis.
 */
export async function openWalkthroughs(
  config: Config,
  logger?: Logger,
  connection?: RedisConnection,
): Promise<WalkthroughService> {
  const store = await openStore(storeSettings(config), connection);
  return new WalkthroughService({ store, ...(logger ? { logger } : {}) });
}
