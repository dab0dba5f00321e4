// @ts-nocheck
import { placeholders } from '../../src/engine/templates.ts';
import type { Procedure, Step } from '../../src/walkthrough/procedure-schema.ts';

/** One way out of a step: `label` names the answer, branch or outcome that takes it. */
export interface Edge {
  from: string;
  to: string;
  label: string;
  /** Value names this edge makes known for the steps after it. */
  learns: string[];
}

function branchEdges(step: Extract<Step, { kind: 'measurement' | 'paste' }>): Edge[] {
  const from = step.id;
  // A measurement branch can test any known value; a paste branch tests the parsed values, which
  // later steps see as `<step-id>.<key>`.
  const name = (value: string) => (step.kind === 'paste' ? `${from}.${value}` : value);
  // An answered measurement is also known with its unit, as `<step-id>.shown`.
  const answered = step.kind === 'measurement' ? [from, `${from}.shown`] : [from];
  return [
    ...step.branches.map((b, i) => ({
      from,
      to: b.next,
      label: `branch ${i}`,
      learns: [...answered, ...b.when.filter((c) => c.value !== 'value').map((c) => name(c.value))],
    })),
    { from, to: step.otherwise, label: 'otherwise', learns: answered },
    ...(step.on_skip ? [{ from, to: step.on_skip, label: 'skip', learns: [] }] : []),
  ];
}

/** Every way out of a step, in the order a reader meets them. */
export function edgesOf(step: Step): Edge[] {
  const from = step.id;
  switch (step.kind) {
    case 'instruction':
      return [
        { from, to: step.next, label: 'done', learns: [from] },
        ...(step.on_skip ? [{ from, to: step.on_skip, label: 'skip', learns: [] }] : []),
        ...(step.on_cant ? [{ from, to: step.on_cant, label: 'cant', learns: [from] }] : []),
      ];
    case 'question':
      return step.answers.map((a) => ({ from, to: a.next, label: a.id, learns: [from] }));
    case 'measurement':
    case 'paste':
      return branchEdges(step);
    case 'bisection':
      return [{ from, to: step.found, label: 'found', learns: [from] }];
    case 'conclusion':
      return [];
  }
}

function templatesOf(step: Step): string[] {
  const texts = [step.title, step.text];
  if (step.kind === 'conclusion') texts.push(...step.fix, ...step.verify);
  if (step.kind === 'bisection') texts.push(step.symptom);
  return texts;
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
