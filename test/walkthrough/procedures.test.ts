import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { placeholders } from '../../src/engine/templates.ts';
import { PLAYBOOKS_DIR } from '../../src/playbooks/load.ts';
import { type Procedure, ProcedureSchema } from '../../src/walkthrough/procedure-schema.ts';
import { type WalkAnswer, type WalkFact, walk } from './path-walker.ts';
import { edgesOf, lintProcedure } from './procedure-graph.ts';

/** Every playbook that must ship a procedure. */
const PLAYBOOK_IDS = [
  'beam-python-leak',
  'flink-container-oom-killed',
  'flink-jvm-oom',
  'flink-pending-slots',
  'glue-heap-oom',
  'jvm-oom',
  'spark-driver-result-size',
  'spark-executor-overhead-killed',
  'spark-heap-oom',
] as const;

/** Parser ids paste steps may name (the parsers branch registers them). */
const PARSER_IDS = new Set([
  'pmap',
  'nmt-summary',
  'nmt-diff',
  'class-histogram',
  'gc-log',
  'java-version',
  'flink-taskmanagers',
  'flink-resource-profile',
  'spark-eventlog',
  'memray',
  'tracemalloc',
  'kubectl-pod',
  'memory-samples',
  'lines',
]);

/** Values the diagnosis computes (src/engine/derive) that fix and verify lines may name. */
const VALUE_NAME =
  /^(container\.(used|limit)|overhead\.(current|suggested)|executor\.memory|result\.(size|limit|tasks|per-task|suggested-limit)|driver\.suggested-memory|heap\.[a-z]+(\.suggested)?|slots\.timeout(-ms)?|jdk\.version|glue\.worker(\.next)?|config\.[\w.-]+)$/;

const WalkSchema = z.strictObject({
  expect: z.string(),
  facts: z
    .array(z.union([z.string(), z.strictObject({ kind: z.string(), values: z.record(z.string(), z.any()) })]))
    .default([]),
  /** Values the diagnosis computed, for measurement prefills. */
  values: z.record(z.string(), z.string()).default({}),
  answers: z.array(
    z.union([z.string(), z.number(), z.strictObject({ values: z.record(z.string(), z.any()) })]),
  ),
});

function readYaml(...parts: string[]): unknown {
  return parseYaml(readFileSync(join(...parts), 'utf8'));
}

function loadProcedure(id: string): Procedure {
  const parsed = ProcedureSchema.safeParse(readYaml(PLAYBOOKS_DIR, id, 'procedure.yaml'));
  if (!parsed.success) throw new Error(`${id}/procedure.yaml:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

function loadWalks(id: string): z.infer<typeof WalkSchema>[] {
  return z.array(WalkSchema).parse(readYaml(import.meta.dirname, 'walks', `${id}.yaml`));
}

describe.each(PLAYBOOK_IDS)('procedure of %s', (id) => {
  const procedure = loadProcedure(id);
  const steps = procedure.steps;
  const walks = loadWalks(id);

  it('is a sound graph: known targets, every step reachable, no cycles, so every path ends in a conclusion', () => {
    expect(lintProcedure(procedure)).toEqual([]);
  });

  it('names only known parsers, real answers in prefills, and an earlier step for bisection candidates', () => {
    for (const step of steps) {
      if (step.kind === 'paste') expect(PARSER_IDS, step.id).toContain(step.parser);
      if (step.kind === 'question') {
        const answers = step.answers.map((a) => a.id);
        for (const p of step.prefill ?? []) expect(answers, step.id).toContain(p.answer);
      }
      if (step.kind === 'bisection' && !Array.isArray(step.candidates)) {
        const source = steps.findIndex((s) => s.id === (step.candidates as { from_step: string }).from_step);
        expect(source, step.id).toBeGreaterThanOrEqual(0);
        expect(source, step.id).toBeLessThan(steps.indexOf(step));
      }
    }
  });

  it('uses placeholders only in fix and verify lines, with known names, and stays readable without them', () => {
    for (const step of steps) {
      expect(placeholders(`${step.title} ${step.text}`), step.id).toEqual([]);
      if (step.kind !== 'conclusion') continue;
      for (const name of placeholders([...step.fix, ...step.verify].join(' '))) {
        expect(name, step.id).toMatch(VALUE_NAME);
      }
      // A line whose value is missing is dropped, so each list needs a line that needs no value.
      expect(
        step.fix.some((line) => placeholders(line).length === 0),
        `${step.id} fix`,
      ).toBe(true);
      expect(
        step.verify.some((line) => placeholders(line).length === 0),
        `${step.id} verify`,
      ).toBe(true);
    }
  });

  it.each(walks.map((w, i) => ({ ...w, name: `${i + 1}: ${w.expect}` })))(
    'walk $name',
    ({ expect: conclusion, facts, answers, values }) => {
      expect(walk(procedure, facts as WalkFact[], answers as WalkAnswer[], values).conclusion).toBe(
        conclusion,
      );
    },
  );

  it('has walks that together take every way out of every step and reach every conclusion', () => {
    const taken = new Set(
      walks.flatMap((w) =>
        walk(procedure, w.facts as WalkFact[], w.answers as WalkAnswer[], w.values).edges.map(
          (e) => `${e.from} -[${e.label}]-> ${e.to}`,
        ),
      ),
    );
    const all = steps.flatMap((s) => edgesOf(s).map((e) => `${e.from} -[${e.label}]-> ${e.to}`));
    expect(all.filter((e) => !taken.has(e))).toEqual([]);
  });

  it('has prefills that walks exercise at least once', () => {
    const prefilled = steps.flatMap((s) => (s.kind === 'question' && s.prefill?.length ? [s.id] : []));
    const withFacts = walks.filter((w) => w.facts.length > 0);
    expect(prefilled.length === 0 || withFacts.length > 0).toBe(true);
  });
});
