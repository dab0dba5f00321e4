import type { Procedure, Step } from '../../src/walkthrough/procedure-schema.ts';

/** One way out of a step: the label names the answer, branch or outcome that takes it. */
export interface Edge {
  from: string;
  to: string;
  label: string;
}

/** Every way out of a step, in the order a reader meets them. */
export function edgesOf(step: Step): Edge[] {
  const from = step.id;
  switch (step.kind) {
    case 'instruction':
      return [
        { from, to: step.next, label: 'done' },
        ...(step.on_skip ? [{ from, to: step.on_skip, label: 'skip' }] : []),
        ...(step.on_cant ? [{ from, to: step.on_cant, label: 'cant' }] : []),
      ];
    case 'question':
      return step.answers.map((a) => ({ from, to: a.next, label: a.id }));
    case 'measurement':
    case 'paste':
      return [
        ...step.branches.map((b, i) => ({ from, to: b.next, label: `branch ${i}` })),
        { from, to: step.otherwise, label: 'otherwise' },
        ...(step.on_skip ? [{ from, to: step.on_skip, label: 'skip' }] : []),
      ];
    case 'bisection':
      return [{ from, to: step.found, label: 'found' }];
    case 'conclusion':
      return [];
  }
}

/** Steps by id; throws on a duplicate id, which would make `next` ambiguous. */
export function stepMap(procedure: Procedure): Map<string, Step> {
  const map = new Map<string, Step>();
  for (const step of procedure.steps) {
    if (map.has(step.id)) throw new Error(`duplicate step id "${step.id}"`);
    map.set(step.id, step);
  }
  return map;
}

/** Problems with the shape of a procedure: dangling ids, unreachable steps, cycles. Empty when sound. */
export function lintProcedure(procedure: Procedure): string[] {
  const steps = stepMap(procedure);
  const problems: string[] = [];
  if (!steps.has(procedure.start)) problems.push(`start "${procedure.start}" is not a step`);
  for (const step of procedure.steps) {
    for (const edge of edgesOf(step)) {
      if (!steps.has(edge.to)) problems.push(`${step.id} (${edge.label}) goes to unknown step "${edge.to}"`);
    }
  }
  if (problems.length > 0) return problems;
  const reached = new Set<string>();
  const onPath = new Set<string>();
  // Depth-first from the start: a step met again while still on the path is a cycle, which could keep a
  // walkthrough from ever reaching a conclusion.
  const visit = (id: string): void => {
    if (onPath.has(id)) {
      problems.push(`cycle through "${id}"`);
      return;
    }
    if (reached.has(id)) return;
    reached.add(id);
    onPath.add(id);
    const step = steps.get(id);
    if (step) for (const edge of edgesOf(step)) visit(edge.to);
    onPath.delete(id);
  };
  visit(procedure.start);
  for (const id of steps.keys()) if (!reached.has(id)) problems.push(`step "${id}" cannot be reached`);
  return problems;
}
