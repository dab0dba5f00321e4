import { placeholders } from '../../src/engine/templates.ts';
import type { Procedure, Step } from '../../src/walkthrough/procedure-schema.ts';
import { stepKind } from '../../src/walkthrough/steps/registry.ts';

/** One way out of a step: `label` names the answer, branch or outcome that takes it. */
export interface Edge {
  from: string;
  to: string;
  label: string;
  /** Value names this edge makes known for the steps after it. */
  learns: string[];
}

/** Every way out of a step, in the order a reader meets them (as its kind declares them). */
export function edgesOf(step: Step): Edge[] {
  return stepKind(step.kind)
    .edges(step)
    .map((e) => ({ from: step.id, to: e.target, label: e.label, learns: e.learns }));
}

function templatesOf(step: Step): string[] {
  return [step.title, step.text, ...(stepKind(step.kind).templates?.(step) ?? [])];
}

/**
 * Placeholders that some path can reach without knowing their value (the walkthrough would show
 * `<name unknown>`), as `step: name`. Diagnosis values only count as known after a measurement branch
 * that tested them; answers count once their step was answered other than by skipping.
 */
export function unsurePlaceholders(procedure: Procedure): string[] {
  const steps = new Map(procedure.steps.map((s) => [s.id, s]));
  const problems = new Set<string>();
  const visit = (id: string, known: ReadonlySet<string>): void => {
    const step = steps.get(id);
    if (!step) return;
    for (const name of templatesOf(step).flatMap(placeholders))
      if (!known.has(name)) problems.add(`${id}: ${name}`);
    for (const edge of edgesOf(step)) visit(edge.to, new Set([...known, ...edge.learns]));
  };
  visit(procedure.start, new Set());
  return [...problems].sort();
}
