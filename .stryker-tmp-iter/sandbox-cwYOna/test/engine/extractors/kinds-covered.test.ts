// @ts-nocheck
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../../src/engine/extractors/', import.meta.url));
const TESTS = fileURLToPath(new URL('./', import.meta.url));

/** Every fact kind an extractor names literally (`kind: 'oom.java-heap'`). */
function kindsInSource(): string[] {
  const kinds = new Set<string>();
  for (const file of readdirSync(SRC).filter((f) => f.endsWith('.ts'))) {
    for (const match of readFileSync(SRC + file, 'utf8').matchAll(/kind: '([a-z0-9.-]+)'/g))
      kinds.add(match[1] ?? '');
  }
  return [...kinds].sort();
}

const testText = readdirSync(TESTS)
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => readFileSync(TESTS + f, 'utf8'))
  .join('\n');

// Like a playbook without fixtures, a fact kind no test produces fails the suite: add a real line for it.
describe('every fact kind an extractor reports has a test', () => {
  it('finds the kinds', () => {
    expect(kindsInSource().length).toBeGreaterThan(20);
  });

  it.each(kindsInSource())('%s', (kind) => {
    expect(testText).toContain(`'${kind}'`);
  });
});
