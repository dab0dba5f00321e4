import { DEFAULT_MAX_BYTES, type RestTarget, Secret } from '../../src/connectors/config.ts';

/** A target as connectors.yaml would give it, pointed at a fake. */
export function targetFor(url: string, overrides: Partial<RestTarget> = {}): RestTarget {
  return { url, headers: {}, timeoutMs: 5_000, maxBytes: DEFAULT_MAX_BYTES, ...overrides };
}

export const secret = (value: string) => new Secret(value);

export const FIXED_NOW = () => new Date('2026-12-03T11:00:00.000Z');
