/** A wait that doubles from `firstMs` with each attempt, never past `maxMs`. */
export interface Backoff {
  firstMs: number;
  maxMs: number;
}

/**
 * The wait before attempt `n` (1-based) of `backoff`: `firstMs`, then twice that, and so on up to
 * `maxMs`. An attempt count so large that the doubling overflows still gives `maxMs`.
 */
export function backoffMs(backoff: Backoff, n: number): number {
  return Math.min(backoff.maxMs, backoff.firstMs * 2 ** Math.max(0, n - 1));
}

/** An alert delivery's retries: Slack or a connector down for minutes, 8 tries spanning about 10 minutes. */
export const DELIVERY_BACKOFF: Backoff = { firstMs: 5000, maxMs: 300_000 };

/** Asking Slack who the bot is at start: soon after a blip, at least once a minute through an outage. */
export const START_BACKOFF: Backoff = { firstMs: 1000, maxMs: 60_000 };
