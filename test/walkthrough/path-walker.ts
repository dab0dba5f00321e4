import type { FactRef } from '../../src/engine/playbook/schema.ts';
import type { Branch, Condition, Procedure, Step } from '../../src/walkthrough/procedure-schema.ts';
import { type Edge, edgesOf, stepMap } from './procedure-graph.ts';

type Value = string | number | boolean;

/** A fact the diagnosis found, as a walk table gives it. */
export type WalkFact = string | { kind: string; values: Record<string, Value> };

/**
 * One answer per step that is not prefilled: `done`/`skip`/`cant` for an instruction, an answer id for a
 * question, a number for a measurement, `{ values }` as a parser would report them for a paste, and the
 * culprit's name for a bisection.
 */
export type WalkAnswer = string | number | { values: Record<string, Value> };

/** Values the diagnosis computed, by name (e.g. `config.spark.executor.cores`). */
export type KnownValues = Readonly<Record<string, string>>;

export interface WalkResult {
  conclusion: string;
  edges: Edge[];
}

function factMatches(ref: FactRef, facts: readonly WalkFact[]): boolean {
  const kind = typeof ref === 'string' ? ref : ref.fact;
  const where = typeof ref === 'string' ? {} : (ref.where ?? {});
  return facts.some((fact) => {
    const factKind = typeof fact === 'string' ? fact : fact.kind;
    const values = typeof fact === 'string' ? {} : fact.values;
    const kindOk = kind.endsWith('.*') ? factKind.startsWith(kind.slice(0, -1)) : factKind === kind;
    return kindOk && Object.entries(where).every(([key, want]) => values[key] === want);
  });
}

function holds(condition: Condition, values: Readonly<Record<string, Value>>): boolean {
  const actual = values[condition.value];
  if (actual === undefined) return false;
  const want = condition.to;
  switch (condition.op) {
    case 'eq':
      return actual === want;
    case 'neq':
      return actual !== want;
    case 'lt':
      return typeof actual === 'number' && typeof want === 'number' && actual < want;
    case 'lte':
      return typeof actual === 'number' && typeof want === 'number' && actual <= want;
    case 'gt':
      return typeof actual === 'number' && typeof want === 'number' && actual > want;
    case 'gte':
      return typeof actual === 'number' && typeof want === 'number' && actual >= want;
  }
}

function pickBranch(branches: readonly Branch[], values: Readonly<Record<string, Value>>): string {
  const index = branches.findIndex((b) => b.when.every((c) => holds(c, values)));
  return index < 0 ? 'otherwise' : `branch ${index}`;
}

function factNumber(ref: FactRef, key: string, facts: readonly WalkFact[]): number | undefined {
  for (const fact of facts) {
    if (typeof fact === 'string' || !factMatches(ref, [fact])) continue;
    const value = fact.values[key];
    if (typeof value === 'number') return value;
  }
  return undefined;
}

/** The number a measurement's prefill finds in the diagnosis, if any. */
function prefilledNumber(step: Step, facts: readonly WalkFact[], known: KnownValues): number | undefined {
  if (step.kind !== 'measurement') return undefined;
  for (const p of step.prefill ?? []) {
    const found = 'value' in p ? Number(known[p.value] ?? Number.NaN) : factNumber(p.fact, p.key, facts);
    if (found !== undefined && Number.isFinite(found)) return found;
  }
  return undefined;
}

/** Which way out of `step` the next answer takes; consumes answers from the front of the queue. */
function choose(step: Step, facts: readonly WalkFact[], known: KnownValues, queue: WalkAnswer[]): string {
  if (step.kind === 'question') {
    const prefilled = step.prefill?.find((p) => factMatches(p.fact, facts));
    if (prefilled) return prefilled.answer;
  }
  const measured = prefilledNumber(step, facts, known);
  if (measured !== undefined && step.kind === 'measurement')
    return pickBranch(step.branches, { value: measured });
  const answer = queue.shift();
  if (answer === undefined) throw new Error(`ran out of answers at step "${step.id}"`);
  if (answer === 'skip' && (step.kind === 'measurement' || step.kind === 'paste')) return 'skip';
  switch (step.kind) {
    case 'instruction':
    case 'question':
      if (typeof answer !== 'string') throw new Error(`step "${step.id}" wants an answer id`);
      return answer;
    case 'measurement':
      if (typeof answer !== 'number') throw new Error(`step "${step.id}" wants a number`);
      return pickBranch(step.branches, { value: answer });
    case 'paste':
      if (typeof answer !== 'object') throw new Error(`step "${step.id}" wants { values }`);
      return pickBranch(step.branches, answer.values);
    default:
      return 'found';
  }
}

/** Walks a procedure from its start with the given facts and answers, to the conclusion it reaches. */
export function walk(
  procedure: Procedure,
  facts: readonly WalkFact[],
  answers: readonly WalkAnswer[],
  known: KnownValues = {},
): WalkResult {
  const steps = stepMap(procedure);
  const queue = [...answers];
  const taken: Edge[] = [];
  let step = steps.get(procedure.start);
  while (step && step.kind !== 'conclusion') {
    const label = choose(step, facts, known, queue);
    const edge = edgesOf(step).find((e) => e.label === label);
    if (!edge) throw new Error(`step "${step.id}" has no way out called "${label}"`);
    taken.push(edge);
    step = steps.get(edge.to);
    if (taken.length > steps.size) throw new Error('walked more steps than the procedure has');
  }
  if (!step) throw new Error('walked to a step that does not exist');
  if (queue.length > 0) throw new Error(`${queue.length} answer(s) left over at conclusion "${step.id}"`);
  return { conclusion: step.id, edges: taken };
}
