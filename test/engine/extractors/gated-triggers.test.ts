import { describe, expect, it } from 'vitest';
import { MARKERS as ENGINE_MARKERS, engineMarkers } from '../../../src/engine/extractors/engine-markers.ts';
import { EXTRACTORS } from '../../../src/engine/extractors/registry.ts';
import {
  RULES as SPARK_EXECUTOR_LOSS_RULES,
  sparkExecutorLoss,
} from '../../../src/engine/extractors/spark-executor-loss.ts';
import { CAUSES as STACK_CAUSES, stackCauses } from '../../../src/engine/extractors/stack-causes.ts';
import type { Extractor } from '../../../src/engine/extractors/types.ts';
import { normalise } from '../../../src/engine/ingest/normalise.ts';
import { triggerTest } from '../../../src/engine/triggers.ts';
import { literalRuns } from './regex-literals.ts';

// Rules and markers run only on lines holding one of their own triggers; that is what lets the
// engine stop looking for a kind it keeps in full. A trigger list narrower than its pattern would
// silently lose matches, so every way of matching each pattern must contain one of its triggers.

const GATED = [
  { extractor: engineMarkers, items: ENGINE_MARKERS },
  { extractor: stackCauses, items: STACK_CAUSES },
  { extractor: sparkExecutorLoss, items: SPARK_EXECUTOR_LOSS_RULES },
];

describe('literalRuns', () => {
  it('expands alternatives and groups, and drops what is optional', () => {
    expect(literalRuns(/\bfoo\.(?:bar|baz)x?y|^\s*Qux \d+ on\b/)).toEqual([
      ['foo.barxy'],
      ['foo.bary'],
      ['foo.bazxy'],
      ['foo.bazy'],
      ['qux ', ' on'],
    ]);
    expect(literalRuns(/G\.[12]X|run[_-]s+/)).toEqual([['g.1x'], ['g.2x'], ['run_s'], ['run-s']]);
    expect(literalRuns(/a[b-z]d(?!e)f/)).toEqual([['a', 'df']]);
    expect(literalRuns(/a[bc]d/)).toEqual([['abd'], ['acd']]);
  });
});

describe('gated rules and markers', () => {
  for (const { extractor, items } of GATED) {
    it(`${extractor.id}: every way of matching each pattern holds one of its triggers`, () => {
      for (const item of items) {
        const triggers = (item.triggers ?? []).map((t) => t.toLowerCase());
        expect(triggers.length, item.kind).toBeGreaterThan(0);
        for (const way of literalRuns(item.re)) {
          const held = triggers.some((t) => way.some((run) => run.includes(t)));
          expect(held, `${item.kind}: ${item.re.source} can match with only ${JSON.stringify(way)}`).toBe(
            true,
          );
        }
      }
    });

    it(`${extractor.id}: its triggers and their kinds are those of its rules`, () => {
      const kinds = new Set(items.map((item) => item.kind));
      expect(new Set(extractor.triggers)).toEqual(new Set(items.flatMap((item) => item.triggers ?? [])));
      for (const trigger of extractor.triggers) {
        for (const kind of extractor.triggerKinds?.[trigger] ?? []) expect(kinds.has(kind)).toBe(true);
      }
    });
  }

  it('on every family example, a pattern that matches has one of its triggers in the line', () => {
    const examples = Object.values(EXTRACTORS).flatMap((e) => (e.families ?? []).flatMap((f) => f.examples));
    let matched = 0;
    for (const { items } of GATED) {
      for (const item of items) {
        for (const example of examples) {
          const line = normalise(example);
          if (!new RegExp(item.re.source, item.re.flags.replace('g', '')).test(line)) continue;
          matched++;
          expect(triggerTest(item.triggers ?? []).test(line), `${item.kind}: ${example}`).toBe(true);
        }
      }
    }
    expect(matched).toBeGreaterThan(50);
  });

  it('declares kinds only an extractor can give', () => {
    for (const extractor of Object.values(EXTRACTORS) as Extractor[]) {
      const declared = new Set([
        ...(extractor.kinds ?? []),
        ...Object.values(extractor.triggerKinds ?? {}).flat(),
      ]);
      for (const family of extractor.families ?? []) {
        if (declared.size > 0)
          expect(declared.has(family.kind), `${extractor.id}: ${family.kind}`).toBe(true);
      }
    }
  });
});
