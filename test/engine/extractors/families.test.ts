import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EXTRACTORS } from '../../../src/engine/extractors/registry.ts';
import { normalise } from '../../../src/engine/ingest/normalise.ts';
import { kindsOf } from './run-extractor.ts';

const SRC = fileURLToPath(new URL('../../../src/engine/extractors/', import.meta.url));

/** Every fact kind a file names literally (`kind: 'oom.java-heap'`). */
function kindsNamedIn(file: string): string[] {
  const text = readFileSync(SRC + file, 'utf8');
  return [...new Set([...text.matchAll(/kind: '([a-z0-9.-]+)'/g)].map((m) => m[1] ?? ''))].sort();
}

const extractors = Object.entries(EXTRACTORS);
const examples = extractors.flatMap(([id, extractor]) =>
  (extractor.families ?? []).flatMap((family) =>
    family.examples.map((line) => ({ id, family: family.name, kind: family.kind, line })),
  ),
);

/** A pattern, fresh and without the global flag, so `test` does not depend on an earlier call. */
function fresh(re: RegExp): RegExp {
  return new RegExp(re.source, re.flags.replace('g', ''));
}

const patterns = extractors.flatMap(([id, extractor]) =>
  (extractor.patterns ?? []).map((re, index) => ({ id, index, re: fresh(re) })),
);

describe('message families: each rule keeps a line from its source', () => {
  it.each(extractors)(
    '%s declares a family with a source and an example for every kind it reports',
    (id, extractor) => {
      expect(extractor.families?.length ?? 0, `${id} declares no families`).toBeGreaterThan(0);
      const declared = new Set((extractor.families ?? []).map((f) => f.kind));
      for (const family of extractor.families ?? []) {
        expect(family.source.trim(), `${id}: ${family.name}`).not.toBe('');
        expect(family.versions.trim(), `${id}: ${family.name}`).not.toBe('');
        expect(family.examples.length, `${id}: ${family.name}`).toBeGreaterThan(0);
      }
      for (const kind of kindsNamedIn(`${id}.ts`)) expect(declared, `${id} reports ${kind}`).toContain(kind);
    },
  );

  it.each(examples)('$id / $family: "$line"', ({ id, kind, line }) => {
    const extractor = EXTRACTORS[id];
    expect(extractor).toBeDefined();
    if (extractor) expect(kindsOf(extractor, line)).toContain(kind);
  });

  it.each(extractors)('%s lists the patterns it applies', (id, extractor) => {
    expect(extractor.patterns?.length ?? 0, `${id} lists no patterns`).toBeGreaterThan(0);
  });

  // A rule without a line from its source is a rule nobody can check: every pattern must match one
  // of its extractor's family examples, as the engine sees the line.
  it.each(patterns)('$id pattern #$index ($re) matches a family example', ({ id, re }) => {
    const lines = (EXTRACTORS[id]?.families ?? []).flatMap((f) => f.examples).map(normalise);
    expect(
      lines.some((line) => re.test(line)),
      `${id}: no example matches ${re}`,
    ).toBe(true);
  });
});
