import { z } from 'zod';
import { type Procedure, ProcedureSchema, type Step } from './procedure-schema.ts';
import { stepKind } from './steps/registry.ts';
import type { LintContext, ProcedureProblem } from './steps/step-kind.ts';

export type { ProcedureProblem } from './steps/step-kind.ts';

/** A step's outgoing edges, each with the field that names it (`steps[3].answers[1].next`). */
export function edgesOf(step: Step, index: number): { path: string; target: string }[] {
  return stepKind(step.kind)
    .edges(step)
    .map((edge) => ({ path: `steps[${index}].${edge.field}`, target: edge.target }));
}

function checkIds(procedure: Procedure, problems: ProcedureProblem[]): void {
  const seen = new Set<string>();
  procedure.steps.forEach((step, i) => {
    if (seen.has(step.id))
      problems.push({ path: `steps[${i}].id`, message: `step id "${step.id}" is used twice` });
    seen.add(step.id);
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
  });
}

/** What each kind checks in its own steps (answers, parsers, units, where candidates come from). */
function checkKinds(procedure: Procedure, parsers: ReadonlySet<string>, problems: ProcedureProblem[]): void {
  const context: LintContext = {
    parsers,
    givesLines: (id) => {
      const source = procedure.steps.find((s) => s.id === id);
      return source !== undefined && stepKind(source.kind).lines !== undefined;
    },
  };
  procedure.steps.forEach((step, i) => {
    problems.push(...(stepKind(step.kind).lint?.(step, `steps[${i}]`, context) ?? []));
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
  checkKinds(procedure, parsers, problems);
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
