// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { EXTRACTORS } from '../../../src/engine/extractors/registry.ts';

describe('extractor registry', () => {
  const entries = Object.entries(EXTRACTORS);

  it('is not empty', () => {
    expect(entries.length).toBeGreaterThan(0);
  });

  it.each(entries)('%s is registered under its own id', (key, extractor) => {
    expect(extractor.id).toBe(key);
    expect(extractor.description.length).toBeGreaterThan(10);
  });

  // The engine compares triggers with the lower-cased line: an upper-case trigger would never fire.
  it.each(entries)('%s has lower-case, non-empty triggers', (_key, extractor) => {
    expect(extractor.triggers.length).toBeGreaterThan(0);
    for (const trigger of extractor.triggers) {
      expect(trigger.length).toBeGreaterThan(0);
      expect(trigger).toBe(trigger.toLowerCase());
    }
  });

  it.each(entries)('%s finds nothing on an empty or blank line', (_key, extractor) => {
    expect(extractor.extract('')).toEqual([]);
    expect(extractor.extract('    ')).toEqual([]);
  });
});
