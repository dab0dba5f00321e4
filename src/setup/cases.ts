import { MemoryCaseStore } from '../cases/store/memory.ts';
import type { CaseStore } from '../cases/store/types.ts';
import { type Config, caseLimits } from '../config.ts';
import type { CaseLimits } from '../engine/case/index.ts';

/** A case store and the limits of one case. */
export interface Cases {
  store: CaseStore;
  limits: CaseLimits;
}

/**
 * Cases in this process (the console's session, a Slack app without Redis), kept as long as
 * walkthroughs are. The Redis store is in setup/redis-cases.ts, so the console never loads ioredis.
 */
export function memoryCases(config: Config): Cases {
  return {
    store: new MemoryCaseStore({ ttlSeconds: config.MEMDOCTOR_WALKTHROUGH_TTL_SECONDS }),
    limits: caseLimits(config),
  };
}
