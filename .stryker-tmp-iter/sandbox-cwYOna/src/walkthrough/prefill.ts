// @ts-nocheck
import { WalkthroughInvalidEventError } from '../errors.ts';
import { bisectionState, candidatesOf } from './bisection.ts';
import { firstBranch } from './conditions.ts';
import { knownFacts, knownValues, matchingFacts, refText } from './known.ts';
import type { MeasurementPrefill, Step } from './procedure-schema.ts';
import type { Answer, WalkthroughRecord } from './record.ts';

/** The actor named on answers memdoctor gave itself from known facts. */
export const PREFILL_ACTOR = 'memdoctor';

/** An answer for a step, where it leads, and why. */
export interface Outcome {
  answer: Answer;
  next: string;
  because?: string;
}

/** The step with this id in the record's procedure snapshot. */
export function stepById(record: WalkthroughRecord, id: string): Step {
  const step = record.procedure.steps.find((s) => s.id === id);
  if (!step) throw new WalkthroughInvalidEventError(`the procedure has no step "${id}"`);
  return step;
}

function measurementFromKnown(
  record: WalkthroughRecord,
  p: MeasurementPrefill,
): { value: number; source: string } | undefined {
  if ('value' in p) {
    const text = knownValues(record)[p.value];
    const value = text === undefined ? Number.NaN : Number(text);
    return Number.isFinite(value) ? { value, source: p.value } : undefined;
  }
  for (const fact of matchingFacts(knownFacts(record), p.fact)) {
    const value = fact.values?.[p.key];
    if (typeof value === 'number') return { value, source: `${refText(p.fact)} ${p.key}` };
  }
  return undefined;
}

/** Where a measurement leads for a value, with the branch's reason. */
export function measurementOutcome(
  record: WalkthroughRecord,
  step: Extract<Step, { kind: 'measurement' }>,
  value: number,
): Outcome {
  const branch = firstBranch(step.branches, { ...knownValues(record), value });
  return {
    answer: { kind: 'measurement', value, unit: step.unit },
    next: branch?.next ?? step.otherwise,
    because: branch?.because,
  };
}

function questionPrefill(
  record: WalkthroughRecord,
  step: Extract<Step, { kind: 'question' }>,
): Outcome | undefined {
  for (const p of step.prefill ?? []) {
    const answer = step.answers.find((a) => a.id === p.answer);
    if (answer && matchingFacts(knownFacts(record), p.fact).length > 0)
      return {
        answer: { kind: 'question', answer: answer.id, label: answer.label },
        next: answer.next,
        because: `known from the facts: ${refText(p.fact)}`,
      };
  }
  return undefined;
}

function measurementPrefill(
  record: WalkthroughRecord,
  step: Extract<Step, { kind: 'measurement' }>,
): Outcome | undefined {
  for (const p of step.prefill ?? []) {
    const known = measurementFromKnown(record, p);
    if (!known) continue;
    const outcome = measurementOutcome(record, step, known.value);
    const reason = `known from ${known.source}`;
    return { ...outcome, because: outcome.because ? `${reason}; ${outcome.because}` : reason };
  }
  return undefined;
}

/** An answer known without asking: from the diagnosis facts, earlier answers or a one-candidate bisection. */
export function prefillOf(record: WalkthroughRecord, step: Step): Outcome | undefined {
  if (step.kind === 'question') return questionPrefill(record, step);
  if (step.kind === 'measurement') return measurementPrefill(record, step);
  if (step.kind === 'bisection' && candidatesOf(step, record).length <= 1) {
    const found = bisectionState(step, record).remaining[0] ?? '(no candidates were given)';
    return {
      answer: { kind: 'bisection', found, rounds: [] },
      next: step.found,
      because: 'only one candidate',
    };
  }
  return undefined;
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
    if (step.kind === 'conclusion') return { ...next, current: stepId, status: 'done', rounds: [] };
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
