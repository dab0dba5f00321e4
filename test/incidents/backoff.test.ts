import { describe, expect, it } from 'vitest';
import { backoffMs, DELIVERY_BACKOFF, START_BACKOFF } from '../../src/incidents/backoff.ts';

describe('backoffMs', () => {
  it('doubles from its first wait and stops at its most', () => {
    const waits = [1, 2, 3, 4, 5].map((n) => backoffMs({ firstMs: 100, maxMs: 1000 }, n));
    expect(waits).toEqual([100, 200, 400, 800, 1000]);
  });

  it('gives the most for an attempt count whose doubling overflows, and the first wait below 1', () => {
    expect(backoffMs({ firstMs: 100, maxMs: 1000 }, 5000)).toBe(1000);
    expect(backoffMs({ firstMs: 100, maxMs: 1000 }, 0)).toBe(100);
  });

  it('retries a delivery from 5 s to 5 minutes, and asks Slack at start from 1 s to a minute', () => {
    expect([1, 2, 7, 8].map((n) => backoffMs(DELIVERY_BACKOFF, n))).toEqual([5000, 10_000, 300_000, 300_000]);
    expect([1, 2, 6, 7, 50].map((n) => backoffMs(START_BACKOFF, n))).toEqual([
      1000, 2000, 32_000, 60_000, 60_000,
    ]);
  });
});
