import type { Logger } from 'pino';
import { type Config, secretFromEnv } from '../config.ts';
import { type ConnectorsConfig, loadConnectorsConfig } from '../connectors/config.ts';
import { FetchGate } from '../diagnosis/fetch-access.ts';
import type { FetchLimits } from '../diagnosis/fetch-limits.ts';
import { RedisFetchSlots } from '../diagnosis/fetch-slots-redis.ts';
import { childFor } from '../log.ts';
import type { RedisConnection } from '../redis/connection.ts';
import { RedisKeys } from '../redis/keys.ts';

/** The connectors.yaml MEMDOCTOR_CONNECTORS names, when set; a bad file stops start-up with its error. */
export function configuredConnectors(config: Config): ConnectorsConfig | undefined {
  if (!config.MEMDOCTOR_CONNECTORS) return undefined;
  return loadConnectorsConfig(config.MEMDOCTOR_CONNECTORS, (name) => secretFromEnv(name));
}

/** The caps on fetches from the connectors (MEMDOCTOR_FETCHES_*). */
export function fetchLimits(config: Config): FetchLimits {
  return {
    perUser: config.MEMDOCTOR_FETCHES_PER_USER,
    perUserPerMinute: config.MEMDOCTOR_FETCHES_PER_USER_PER_MINUTE,
    total: config.MEMDOCTOR_FETCHES_TOTAL,
  };
}

/** The fetch caps counted in `redis`, so every replica and terminal on it shares them. */
export function redisFetchSlots(config: Config, redis: RedisConnection, log?: Logger): RedisFetchSlots {
  const keys = new RedisKeys(config.MEMDOCTOR_REDIS_PREFIX);
  return new RedisFetchSlots(redis, keys, fetchLimits(config), log ? { log } : {});
}

/**
 * The connectors and the one gate every Slack fetch passes (access rules, caps, audit lines under
 * module "fetch-audit"); nothing when MEMDOCTOR_CONNECTORS is unset. With the app's Redis, the caps
 * are counted there, so every replica shares them; without, in this process.
 */
export function configuredFetching(
  config: Config,
  log: Logger,
  redis?: RedisConnection,
): { connectors?: ConnectorsConfig; fetchGate?: FetchGate } {
  const connectors = configuredConnectors(config);
  if (!connectors) return {};
  const audit = childFor(log, 'fetch-audit');
  const slots = redis ? redisFetchSlots(config, redis, log) : fetchLimits(config);
  return { connectors, fetchGate: new FetchGate(connectors.access, audit, slots) };
}
