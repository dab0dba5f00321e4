import { WalkthroughInvalidEventError } from '../errors.ts';
import { stepContext } from './known.ts';
import type { Answer, WalkthroughRecord } from './record.ts';
import { type Step, stepKind } from './steps/registry.ts';
import type { Outcome } from './steps/step-kind.ts';

/** The actor named on answers memdoctor gave itself from known facts. */
export const PREFILL_ACTOR = 'memdoctor';

export type { Outcome } from './steps/step-kind.ts';

/** The step with this id in the record's procedure snapshot. */
export function stepById(record: WalkthroughRecord, id: string): Step {
  const step = record.procedure.steps.find((s) => s.id === id);
  if (!step) throw new WalkthroughInvalidEventError(`the procedure has no step "${id}"`);
  return step;
}

/** An answer known without asking: from the diagnosis facts, earlier answers or a one-candidate bisection. */
export function prefillOf(record: WalkthroughRecord, step: Step): Outcome<Answer> | undefined {
  return stepKind(step.kind).prefill?.(step, stepContext(record));
}

/**
 * Moves to a step, answering it (and the ones after it) from what is already known, until a step
 * needs a person or a conclusion is reached. The procedure is acyclic (lint), so this ends.
 */
export function enter(record: WalkthroughRecord, id: string, at: string): WalkthroughRecord {
  let next = record;
  let stepId = id;
  for (let guard = 0; guard <= record.procedure.steps.length; guard++) {
    const step = stepById(next, stepId);
    if (stepKind(step.kind).final) return { ...next, current: stepId, status: 'done', rounds: [] };
    const known = prefillOf(next, step);
    if (!known) return { ...next, current: stepId, rounds: [] };
    next = {
      ...next,
      path: [...next.path, { step: stepId, ...known, by: PREFILL_ACTOR, prefilled: true, at }],
      audit: [
        ...next.audit,
        { at, actor: PREFILL_ACTOR, event: 'prefill', step: stepId, detail: known.because ?? '' },
      ],
    };
    stepId = known.next;
  }
  throw new WalkthroughInvalidEventError('the procedure loops; run `memdoctor playbooks lint`');
}
