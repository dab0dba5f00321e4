import { z } from 'zod';
import { defineStepKind, type StepContext } from './step-kind.ts';
import { fillKnown, wrongEvent } from './step-rules.ts';
import { baseStep, RoundSchema, stepId } from './step-schemas.ts';
import type { BisectionState } from './step-view.ts';

/** Halves a list of candidates each round until one remains. */
const BisectionStepSchema = z.strictObject({
  ...baseStep,
  kind: z.literal('bisection'),
  /** The fixed list, or the lines the user pasted/typed at an earlier step. */
  candidates: z.union([z.array(z.string().min(1)).min(2), z.strictObject({ from_step: stepId })]),
  /** What "bad" means in this bisection, e.g. "memory keeps growing". */
  symptom: z.string().min(1),
  found: stepId,
});

type BisectionStep = z.infer<typeof BisectionStepSchema>;

const BisectionAnswerSchema = z.strictObject({
  kind: z.literal('bisection'),
  found: z.string(),
  rounds: z.array(RoundSchema),
});

const EXPECTS = 'say whether the symptom showed (leak or no leak)';

/** The candidate list: fixed in the procedure, or the lines given at an earlier step. */
function candidatesOf(step: BisectionStep, ctx: StepContext): string[] {
  return Array.isArray(step.candidates) ? step.candidates : ctx.linesOf(step.candidates.from_step);
}

/**
 * The candidates still suspected after the rounds so far. A round with the symptom keeps the tested
 * half; a round without it keeps the rest.
 */
export function remainingAfter(candidates: readonly string[], rounds: StepContext['rounds']): string[] {
  let remaining = [...candidates];
  for (const round of rounds) {
    const tested = new Set(round.tested);
    remaining = remaining.filter((c) => tested.has(c) === round.leak);
  }
  return remaining;
}

/** The half to run with next: the first ceil(n/2) of those remaining, so the list order is kept. */
export function halfToTest(remaining: readonly string[]): string[] {
  return remaining.slice(0, Math.ceil(remaining.length / 2));
}

function stateOf(step: BisectionStep, ctx: StepContext): BisectionState {
  const remaining = remainingAfter(candidatesOf(step, ctx), ctx.rounds);
  const testWith = halfToTest(remaining);
  return { round: ctx.rounds.length + 1, remaining, testWith, holdBack: remaining.slice(testWith.length) };
}

export const bisection = defineStepKind({ schema: BisectionStepSchema, answerSchema: BisectionAnswerSchema })(
  {
    expects: EXPECTS,
    edges: (step) => [{ field: 'found', target: step.found, label: 'found', learns: [step.id] }],
    templates: (step) => [step.symptom],
    lint(step, at, procedure) {
      if (Array.isArray(step.candidates) || procedure.givesLines(step.candidates.from_step)) return [];
      const from = step.candidates.from_step;
      return [
        {
          path: `${at}.candidates.from_step`,
          message: `"${from}" must be a paste step (its lines are the candidates)`,
        },
      ];
    },
    answer(step, event, ctx) {
      if (event.type !== 'bisect') throw wrongEvent(step, EXPECTS, event);
      const state = stateOf(step, ctx);
      const round = { tested: state.testWith, leak: event.leak };
      const remaining = event.leak ? state.testWith : state.holdBack;
      if (remaining.length > 1) return { round };
      const rounds = [...ctx.rounds, round];
      return {
        outcome: {
          answer: { kind: 'bisection', found: remaining[0] ?? '(none)', rounds },
          next: step.found,
          because: `found in ${rounds.length} round${rounds.length === 1 ? '' : 's'}`,
        },
      };
    },
    prefill(step, ctx) {
      if (candidatesOf(step, ctx).length > 1) return undefined;
      return {
        answer: {
          kind: 'bisection',
          found: stateOf(step, ctx).remaining[0] ?? '(no candidates were given)',
          rounds: [],
        },
        next: step.found,
        because: 'only one candidate',
      };
    },
    options(step, ctx) {
      const s = { step: step.id };
      return [
        { label: `Yes: ${fillKnown(step.symptom, ctx.values)}`, event: { type: 'bisect', leak: true, ...s } },
        { label: 'No: it behaved', event: { type: 'bisect', leak: false, ...s } },
      ];
    },
    details: (step, ctx) => ({
      bisection: {
        ...stateOf(step, ctx),
        symptom: fillKnown(step.symptom, ctx.values),
        total: candidatesOf(step, ctx).length,
      },
    }),
    answerText: (answer) => answer.found,
    roundsOf: (answer) => answer.rounds,
    linesFrom: (step) => (Array.isArray(step.candidates) ? undefined : step.candidates.from_step),
    transcript: (answer) =>
      answer.rounds.map(
        (r, n) => `Round ${n + 1}: ${r.leak ? 'symptom' : 'no symptom'} with ${r.tested.join(', ')}`,
      ),
    scripted: (step, answer, ctx) =>
      typeof answer === 'object'
        ? { type: 'bisect', leak: stateOf(step, ctx).testWith.includes(answer.culprit) }
        : undefined,
  },
);
