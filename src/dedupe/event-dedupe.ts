/** Remembers which Events API deliveries were already handled, so Slack's retries run once. */
export interface EventDedupe {
  /** True the first time an id is seen (within the window, default the store's), false for every repeat. */
  firstTime(eventId: string, ttlSeconds?: number): Promise<boolean>;
}

/** Slack retries for up to about an hour; an id is remembered a little longer than that. */
export const DEDUPE_TTL_SECONDS = 2 * 3600;

/** One process only: lost on restart and not shared between replicas. */
export class MemoryEventDedupe implements EventDedupe {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly ttlSeconds = DEDUPE_TTL_SECONDS,
    private readonly now: () => number = Date.now,
  ) {}

  async firstTime(eventId: string, ttlSeconds = this.ttlSeconds): Promise<boolean> {
    const now = this.now();
    for (const [id, expires] of this.seen) if (expires <= now) this.seen.delete(id);
    if (this.seen.has(eventId)) return false;
    this.seen.set(eventId, now + ttlSeconds * 1000);
    return true;
  }
}
