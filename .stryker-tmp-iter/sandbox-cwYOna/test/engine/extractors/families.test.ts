// @ts-nocheck
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EXTRACTORS } from '../../../src/engine/extractors/registry.ts';
import { kindsOf } from './run-extractor.ts';

const SRC = fileURLToPath(new URL('../../../src/engine/extractors/', import.meta.url));

// Extractors whose rules do not carry their message families yet. Remove an id once its file declares
// `families` for every kind it reports; the list only shrinks.
const NOT_YET_CENSUSED = new Set([
  'jvm-oom',
  'jvm-native-alloc',
  'python-memory',
  'container-kill',
  'exit-codes',
  'spark-result-size',
  'spark-executor-loss',
  'engine-markers',
  'jdk-version',
  'config-values',
  'stack-causes',
]);

/** Every fact kind a file names literally (`kind: 'oom.java-heap'`). */
function kindsNamedIn(file: string): string[] {
  const text = readFileSync(SRC + file, 'utf8');
  return [...new Set([...text.matchAll(/kind: '([a-z0-9.-]+)'/g)].map((m) => m[1] ?? ''))].sort();
}

const censused = Object.entries(EXTRACTORS).filter(([id]) => !NOT_YET_CENSUSED.has(id));
const examples = censused.flatMap(([id, extractor]) =>
  (extractor.families ?? []).flatMap((family) =>
    family.examples.map((line) => ({ id, family: family.name, kind: family.kind, line })),
  ),
);

describe('message families: each rule keeps a line from its source', () => {
  it.each(censused)(
    '%s declares a family with a source and an example for every kind it reports',
    (id, extractor) => {
      const declared = new Set((extractor.families ?? []).map((f) => f.kind));
      for (const family of extractor.families ?? []) {
        expect(family.source.trim(), `${id}: ${family.name}`).not.toBe('');
        expect(family.versions.trim(), `${id}: ${family.name}`).not.toBe('');
        expect(family.examples.length, `${id}: ${family.name}`).toBeGreaterThan(0);
      }
      for (const kind of kindsNamedIn(`${id}.ts`)) expect(declared, `${id} reports ${kind}`).toContain(kind);
    },
  );

  it.skipIf(examples.length === 0).each(examples)('$id / $family: "$line"', ({ id, kind, line }) => {
    const extractor = EXTRACTORS[id];
    expect(extractor).toBeDefined();
    if (extractor) expect(kindsOf(extractor, line)).toContain(kind);
  });

  it('the not-yet list names only registered extractors', () => {
    for (const id of NOT_YET_CENSUSED) expect(Object.keys(EXTRACTORS)).toContain(id);
  });
});
