import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { openStore, type StoreSettings, WalkthroughService } from '../walkthrough/index.ts';

/** The store settings the configuration names. */
export function storeSettings(config: Config): StoreSettings {
  return {
    ...(config.REDIS_URL ? { redisUrl: config.REDIS_URL } : {}),
    prefix: config.MEMDOCTOR_REDIS_PREFIX,
    ttlSeconds: config.MEMDOCTOR_WALKTHROUGH_TTL_SECONDS,
  };
}

/** The walkthrough service over the configured store (Redis with REDIS_URL, else memory). */
export async function openWalkthroughs(config: Config, logger?: Logger): Promise<WalkthroughService> {
  const store = await openStore(storeSettings(config));
  return new WalkthroughService({ store, ...(logger ? { logger } : {}) });
}
