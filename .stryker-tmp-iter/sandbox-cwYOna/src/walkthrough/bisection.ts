// @ts-nocheck
import type { Step } from './procedure-schema.ts';
import type { Round, WalkthroughRecord } from './record.ts';

type BisectionStep = Extract<Step, { kind: 'bisection' }>;

/** Most candidates a bisection takes from pasted lines: 64 halve to one in six rounds. */
export const MAX_CANDIDATES = 64;

/** The candidate list: fixed in the procedure, or the lines pasted at an earlier step. */
export function candidatesOf(step: BisectionStep, record: WalkthroughRecord): string[] {
  if (Array.isArray(step.candidates)) return step.candidates;
  const from = step.candidates.from_step;
  const entry = record.path.find((e) => e.step === from);
  return entry?.answer.kind === 'paste' ? (entry.answer.lines ?? []) : [];
}

/**
 * The candidates still suspected after the rounds so far. A round with the symptom keeps the tested
 * half; a round without it keeps the rest.
 */
export function remainingAfter(candidates: readonly string[], rounds: readonly Round[]): string[] {
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

/** Where a bisection stands: round number (1-based), what is still suspected, what to run next. */
export interface BisectionState {
  round: number;
  remaining: string[];
  testWith: string[];
  holdBack: string[];
}

export function bisectionState(step: BisectionStep, record: WalkthroughRecord): BisectionState {
  const remaining = remainingAfter(candidatesOf(step, record), record.rounds);
  const testWith = halfToTest(remaining);
  return { round: record.rounds.length + 1, remaining, testWith, holdBack: remaining.slice(testWith.length) };
}
