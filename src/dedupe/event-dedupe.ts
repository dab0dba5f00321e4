import { LRUCache } from 'lru-cache';

/** Remembers which Events API deliveries were already handled, so Slack's retries run once. */
export interface EventDedupe {
  /** True the first time an id is seen (within the window, default the store's), false for every repeat. */
  firstTime(eventId: string, ttlSeconds?: number): Promise<boolean>;
}

/** Slack retries for up to about an hour; an id is remembered a little longer than that. */
export const DEDUPE_TTL_SECONDS = 2 * 3600;

/**
 * How many ids one process remembers. Slack sends a workspace's events at most a few a second, so two
 * hours of them fit; past the bound the least recently seen id is forgotten first, and a retry of it
 * (Slack retries within the hour) would run once more rather than the process growing without end.
 */
export const DEDUPE_MAX_IDS = 20_000;

/** One process only: lost on restart and not shared between replicas. */
export class MemoryEventDedupe implements EventDedupe {
  private readonly seen: LRUCache<string, true>;

  /** `now` (milliseconds) replaces the cache's monotonic clock in tests. */
  constructor(
    private readonly ttlSeconds = DEDUPE_TTL_SECONDS,
    now?: () => number,
    maxIds = DEDUPE_MAX_IDS,
  ) {
    this.seen = new LRUCache<string, true>({
      max: maxIds,
      ttl: ttlSeconds * 1000,
      // A test's clock jumps; without this the cache would keep reading the time it cached for 1 ms.
      ...(now ? { perf: { now }, ttlResolution: 0 } : {}),
    });
  }

  async firstTime(eventId: string, ttlSeconds = this.ttlSeconds): Promise<boolean> {
    if (this.seen.has(eventId)) return false;
    this.seen.set(eventId, true, { ttl: ttlSeconds * 1000 });
    return true;
  }
}
