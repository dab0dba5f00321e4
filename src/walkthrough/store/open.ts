import type { RedisConnection } from '../../redis/connect.ts';
import type { RedisTarget } from '../../redis/target.ts';
import { MemoryWalkthroughStore } from './memory.ts';
import type { WalkthroughStore } from './types.ts';

/** Where walkthroughs are kept: the few settings a store needs, not the whole configuration. */
export interface StoreSettings {
  /** Redis when set (REDIS_URL or REDIS_CLUSTER_NODES); memory otherwise. */
  redis?: RedisTarget;
  /** Prefix of every Redis key (MEMDOCTOR_REDIS_PREFIX). */
  prefix?: string;
  /** How long an idle walkthrough is kept (MEMDOCTOR_WALKTHROUGH_TTL_SECONDS). */
  ttlSeconds?: number;
}

/**
 * Redis when a target is given (fails with StoreUnavailableError naming its setting when it cannot
 * be reached), otherwise memory. `connection` shares one already open to that target. The Redis
 * store and ioredis are imported only then: `memdoctor walk` without Redis never loads the client
 * (test/cli/lazy-redis.test.ts).
 */
export async function openStore(
  settings: StoreSettings = {},
  connection?: RedisConnection,
): Promise<WalkthroughStore> {
  const { ttlSeconds, redis: target } = settings;
  if (!target) return new MemoryWalkthroughStore({ ttlSeconds });
  const [{ connectTo }, { RedisWalkthroughStore }] = await Promise.all([
    import('../../redis/connect.ts'),
    import('./redis.ts'),
  ]);
  const redis = connection ?? (await connectTo(target));
  return new RedisWalkthroughStore(redis, {
    prefix: settings.prefix,
    ttlSeconds,
    target,
    ownsConnection: connection === undefined,
  });
}
