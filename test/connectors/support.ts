import { afterEach, beforeEach, expect } from 'vitest';
import { DEFAULT_MAX_BYTES, type RestTarget, Secret } from '../../src/connectors/config.ts';

/** A loopback stand-in for a system's API: the REST fake, the AWS fake. */
interface Fake {
  start(): Promise<string>;
  stop(): Promise<void>;
  readonly violations: readonly string[];
}

/** A target as connectors.yaml would give it, pointed at a fake. */
export function targetFor(url: string, overrides: Partial<RestTarget> = {}): RestTarget {
  return { url, headers: {}, timeoutMs: 5_000, maxBytes: DEFAULT_MAX_BYTES, ...overrides };
}

export const secret = (value: string) => new Secret(value);

export const FIXED_NOW = () => new Date('2026-12-03T11:00:00.000Z');

/**
 * Starts a fake before each test of the enclosing describe and stops it after, failing the test if
 * the fake saw a request the published API does not allow. Read `fake` and `url` inside a test.
 */
export function useFake<F extends Fake>(make: () => F): { readonly fake: F; readonly url: string } {
  const running = { fake: undefined as F | undefined, url: '' };
  beforeEach(async () => {
    running.fake = make();
    running.url = await running.fake.start();
  });
  afterEach(async () => {
    expect(running.fake?.violations).toEqual([]);
    await running.fake?.stop();
  });
  return {
    get fake() {
      if (!running.fake) throw new Error('useFake: the fake is read outside a test');
      return running.fake;
    },
    get url() {
      return running.url;
    },
  };
}
