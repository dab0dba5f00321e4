import { RedisCaseStore } from '../cases/store/redis.ts';
import { type Config, caseLimits } from '../config.ts';
import type { RedisConnection } from '../redis/connect.ts';
import type { Cases } from './cases.ts';

/** Cases in the Redis the walkthroughs use (same connection, prefix and TTL): shared by replicas, kept over restarts. */
export function redisCases(config: Config, redis: RedisConnection): Cases {
  return {
    store: new RedisCaseStore(redis, {
      prefix: config.MEMDOCTOR_REDIS_PREFIX,
      ttlSeconds: config.MEMDOCTOR_WALKTHROUGH_TTL_SECONDS,
    }),
    limits: caseLimits(config),
  };
}
