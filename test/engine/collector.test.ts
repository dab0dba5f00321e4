import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FactCollector } from '../../src/engine/collector.ts';
import { EXTRACTORS } from '../../src/engine/extractors/registry.ts';
import type { Extractor } from '../../src/engine/extractors/types.ts';
import { FactBook } from '../../src/engine/facts.ts';
import { evidenceText, isFence, normalise } from '../../src/engine/ingest/normalise.ts';
import { TriggerIndex } from '../../src/engine/triggers.ts';

/** The plain algorithm the collector optimises: every trigger checked, every fact added. */
function referenceBook(lines: readonly string[]): FactBook {
  const book = new FactBook();
  lines.forEach((raw, i) => {
    if (raw.length === 0 || isFence(raw)) return;
    const line = normalise(raw);
    const lower = line.toLowerCase();
    for (const extractor of Object.values(EXTRACTORS)) {
      if (!extractor.triggers.some((t) => lower.includes(t))) continue;
      for (const finding of extractor.extract(line))
        book.add({ ...finding, line: i + 1, text: evidenceText(raw) });
    }
  });
  return book;
}

/** What the diagnosis reads: the kept facts of every kind and the last value of every setting. */
function snapshot(book: FactBook) {
  return {
    kinds: book.kinds().map((kind) => [kind, book.find(kind)]),
    configs: [...book.allConfigs()],
  };
}

const POOL = [
  '',
  '```',
  'INFO nothing here',
  'java.lang.OutOfMemoryError: Java heap space',
  'JAVA.LANG.OUTOFMEMORYERROR: JAVA HEAP SPACE',
  '&gt; Container killed by YARN for exceeding memory limits. 4.5 GB of 4.5 GB physical memory used.',
  '24/03/01 10:00:00 INFO TaskSetManager: Finished task 1.0 in stage 2.0 (TID 3) in 12 ms on host (executor 4) (1/9)',
  'Container exited with a non-zero exit code 137',
  '--conf spark.executor.memory=8g --conf spark.executor.memoryOverhead=1g',
  '\u001b[31mNoResourceAvailableException: Could not acquire the minimum required resources.\u001b[0m',
  'at org.apache.spark.sql.Dataset.collectFromPlan(Dataset.scala:3696)',
  'Out of memory: Killed process 1882 (python) total-vm:6041764kB',
  'Killed',
  'org.apache.flink.runtime.taskexecutor.TaskExecutor - Received task, deploy into slot',
];

describe('FactCollector', () => {
  it('keeps exactly the facts the plain every-trigger, every-fact algorithm keeps', () =>
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...POOL), { maxLength: 60 }), (lines) => {
        const collector = new FactCollector();
        collector.push(lines.slice(0, 20));
        collector.push(lines.slice(20));
        expect(snapshot(collector.book)).toEqual(snapshot(referenceBook(lines)));
      }),
      { numRuns: 200 },
    ));

  // Marker kinds already kept in full are not looked for again (that is the speed-up), so their
  // counts are lower bounds; counts of every other kind are exact.
  it('counts every kind at least as often as it keeps it, and never more than it occurs', () =>
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...POOL), { maxLength: 60 }), (lines) => {
        const collector = new FactCollector();
        collector.push(lines);
        const reference = referenceBook(lines);
        for (const kind of reference.kinds()) {
          const count = collector.book.count(kind);
          expect(count).toBeGreaterThanOrEqual(collector.book.find(kind).length);
          expect(count).toBeLessThanOrEqual(reference.count(kind));
          if (!/^(?:engine|platform|runtime|cause)\./.test(kind)) expect(count).toBe(reference.count(kind));
        }
      }),
      { numRuns: 200 },
    ));

  it('never calls an extractor without triggers', () => {
    let calls = 0;
    const collector = new FactCollector([
      {
        id: 'none',
        description: 'no triggers',
        triggers: [],
        extract: () => {
          calls++;
          return [];
        },
      },
    ]);
    collector.push(['anything at all', 'java.lang.OutOfMemoryError']);
    expect(calls).toBe(0);
  });
});

describe('TriggerIndex', () => {
  // A non-ASCII trigger sends the index to its regex fallback: both must open the same extractors.
  const shipped = Object.values(EXTRACTORS);
  const unscannable: Extractor = {
    id: 'x',
    description: 'non-ASCII',
    triggers: ['größe'],
    extract: () => [],
  };
  const lines = fc.oneof(
    fc.constantFrom(...POOL, 'org.apache.hadoop.yarn.server', 'yarn.nodemanager.x=1', '.spark.x spark.y=1'),
    fc.string(),
  );

  it('opens the same extractors through the byte-scan tables and through the regex fallback', () => {
    const scanned = new TriggerIndex(shipped);
    const regex = new TriggerIndex([...shipped, unscannable]);
    expect(scanned.scannable).toBe(true);
    expect(regex.scannable).toBe(false);
    fc.assert(
      fc.property(fc.array(lines, { minLength: 1, maxLength: 4 }), (parts) => {
        const line = parts.join(' ');
        const fallback = [...regex.opened(line)].filter((i) => i < shipped.length).sort();
        expect([...scanned.opened(line)].sort()).toEqual(fallback);
      }),
      { numRuns: 300 },
    );
  });
});
