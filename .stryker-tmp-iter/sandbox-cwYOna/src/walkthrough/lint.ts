// @ts-nocheck
import { z } from 'zod';
import { rangeText, UNIT_RANGE } from './measure.ts';
import { type Procedure, ProcedureSchema, type Step } from './procedure-schema.ts';

/** One thing wrong with a procedure, with the field it is at (e.g. `steps[3].answers[1].next`). */
export interface ProcedureProblem {
  path: string;
  message: string;
}

/** A step's outgoing edges, each with the field that names it. */
export function edgesOf(step: Step, index: number): { path: string; target: string }[] {
  const at = `steps[${index}]`;
  const edges: { path: string; target: string }[] = [];
  const add = (field: string, target: string | undefined) => {
    if (target !== undefined) edges.push({ path: `${at}.${field}`, target });
  };
  switch (step.kind) {
    case 'instruction':
      add('next', step.next);
      add('on_skip', step.on_skip);
      add('on_cant', step.on_cant);
      break;
    case 'question':
      step.answers.forEach((a, i) => {
        add(`answers[${i}].next`, a.next);
      });
      break;
    case 'measurement':
    case 'paste':
      step.branches.forEach((b, i) => {
        add(`branches[${i}].next`, b.next);
      });
      add('otherwise', step.otherwise);
      add('on_skip', step.on_skip);
      break;
    case 'bisection':
      add('found', step.found);
      break;
    case 'conclusion':
      break;
  }
  return edges;
}

function checkIds(procedure: Procedure, problems: ProcedureProblem[]): void {
  const seen = new Set<string>();
  procedure.steps.forEach((step, i) => {
    if (seen.has(step.id))
      problems.push({ path: `steps[${i}].id`, message: `step id "${step.id}" is used twice` });
    seen.add(step.id);
    if (step.kind === 'question') checkAnswers(step, i, problems);
  });
}

function checkAnswers(
  step: Extract<Step, { kind: 'question' }>,
  i: number,
  problems: ProcedureProblem[],
): void {
  const ids = step.answers.map((a) => a.id);
  ids.forEach((id, j) => {
    if (ids.indexOf(id) !== j)
      problems.push({ path: `steps[${i}].answers[${j}].id`, message: `answer id "${id}" is used twice` });
  });
  step.prefill?.forEach((p, j) => {
    if (!ids.includes(p.answer))
      problems.push({
        path: `steps[${i}].prefill[${j}].answer`,
        message: `"${p.answer}" is not one of this question's answers (${ids.join(', ')})`,
      });
  });
}

function checkTargets(procedure: Procedure, known: ReadonlySet<string>, problems: ProcedureProblem[]): void {
  const names = [...known].join(', ');
  if (!known.has(procedure.start))
    problems.push({ path: 'start', message: `no step "${procedure.start}" (steps: ${names})` });
  procedure.steps.forEach((step, i) => {
    for (const edge of edgesOf(step, i)) {
      if (!known.has(edge.target)) problems.push({ path: edge.path, message: `no step "${edge.target}"` });
      if (edge.target === step.id)
        problems.push({ path: edge.path, message: 'a step cannot lead to itself' });
    }
    if (step.kind === 'bisection' && !Array.isArray(step.candidates)) {
      const from = step.candidates.from_step;
      const source = procedure.steps.find((s) => s.id === from);
      if (source?.kind !== 'paste')
        problems.push({
          path: `steps[${i}].candidates.from_step`,
          message: `"${from}" must be a paste step (its lines are the candidates)`,
        });
    }
  });
}

function checkParsers(
  procedure: Procedure,
  parsers: ReadonlySet<string>,
  problems: ProcedureProblem[],
): void {
  procedure.steps.forEach((step, i) => {
    if (step.kind === 'paste' && !parsers.has(step.parser))
      problems.push({
        path: `steps[${i}].parser`,
        message: `unknown parser "${step.parser}" (known: ${[...parsers].join(', ') || 'none'})`,
      });
  });
}

/**
 * A measurement's bounds and thresholds lie inside its unit's range: a ratio step with a threshold of
 * 80 was written in percent, and no answer would ever reach it.
 */
function checkMeasurements(procedure: Procedure, problems: ProcedureProblem[]): void {
  procedure.steps.forEach((step, i) => {
    if (step.kind !== 'measurement') return;
    const range = UNIT_RANGE[step.unit];
    const outside = (n: number) => n < range.min || (range.max !== undefined && n > range.max);
    const says = `outside the range of ${step.unit} (${rangeText(step.unit)}); write it in the unit the metric shows`;
    for (const field of ['min', 'max'] as const) {
      const n = step[field];
      if (n !== undefined && outside(n))
        problems.push({ path: `steps[${i}].${field}`, message: `${field} ${n} is ${says}` });
    }
    step.branches.forEach((b, j) => {
      b.when.forEach((c, k) => {
        if (c.value === 'value' && typeof c.to === 'number' && outside(c.to))
          problems.push({
            path: `steps[${i}].branches[${j}].when[${k}].to`,
            message: `threshold ${c.to} is ${says}`,
          });
      });
    });
  });
}

/** Reachability from `start` and cycles, by depth-first search; every path must end in a conclusion. */
function checkGraph(procedure: Procedure, problems: ProcedureProblem[]): void {
  const index = new Map(procedure.steps.map((s, i) => [s.id, i]));
  const state = new Map<string, 'open' | 'closed'>();
  const visit = (id: string, trail: string[]): void => {
    const i = index.get(id);
    const step = i === undefined ? undefined : procedure.steps[i];
    if (!step || i === undefined || state.get(id) === 'closed') return;
    if (state.get(id) === 'open') {
      const loop = [...trail.slice(trail.indexOf(id)), id].join(' → ');
      problems.push({
        path: `steps[${i}]`,
        message: `steps form a loop (${loop}); every path must end in a conclusion`,
      });
      return;
    }
    state.set(id, 'open');
    for (const edge of edgesOf(step, i)) visit(edge.target, [...trail, id]);
    state.set(id, 'closed');
  };
  visit(procedure.start, []);
  procedure.steps.forEach((step, i) => {
    if (!state.has(step.id))
      problems.push({
        path: `steps[${i}]`,
        message: `step "${step.id}" cannot be reached from "${procedure.start}"`,
      });
  });
}

/** Everything wrong with a schema-valid procedure that the schema alone cannot see. */
export function lintProcedure(procedure: Procedure, parsers: ReadonlySet<string>): ProcedureProblem[] {
  const problems: ProcedureProblem[] = [];
  checkIds(procedure, problems);
  const known = new Set(procedure.steps.map((s) => s.id));
  checkTargets(procedure, known, problems);
  checkParsers(procedure, parsers, problems);
  checkMeasurements(procedure, problems);
  if (problems.length === 0) checkGraph(procedure, problems);
  return problems;
}

/** The result of checking a raw (YAML-loaded) procedure. */
export type ProcedureCheck = { ok: true; procedure: Procedure } | { ok: false; message: string };

/**
 * Validates a raw procedure against the schema, then lints it. The message lists every problem with
 * the field it is at, in the same shape as `z.prettifyError`.
 */
export function checkProcedure(raw: unknown, parsers: ReadonlySet<string>): ProcedureCheck {
  const parsed = ProcedureSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, message: z.prettifyError(parsed.error) };
  const problems = lintProcedure(parsed.data, parsers);
  if (problems.length === 0) return { ok: true, procedure: parsed.data };
  return { ok: false, message: problems.map((p) => `✖ ${p.message}\n  → at ${p.path}`).join('\n') };
}
