import type { Config } from '../config.ts';
import type { RedisConnection } from '../redis/connect.ts';
import { RedisKeys } from '../redis/keys.ts';
import { MemoryOutcomeStore } from '../stats/memory.ts';
import type { OutcomeStore } from '../stats/outcomes.ts';
import { RedisOutcomeStore } from '../stats/redis.ts';

/** Outcomes in the configured Redis (shared with every replica and the CLI), else in memory. */
export function openOutcomes(config: Config, redis: RedisConnection | undefined): OutcomeStore {
  return redis
    ? new RedisOutcomeStore(redis, new RedisKeys(config.MEMDOCTOR_REDIS_PREFIX))
    : new MemoryOutcomeStore();
}
