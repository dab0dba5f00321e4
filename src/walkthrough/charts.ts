import type { ChartData } from '../engine/charts/types.ts';
import { stepContext } from './known.ts';
import { stepById } from './prefill.ts';
import type { WalkthroughRecord } from './record.ts';
import { fillKnown } from './steps/step-rules.ts';

/** A chart a walkthrough's answers draw, and the file name the transcript refers to it by. */
export interface WalkthroughChart {
  /** The step whose answer it draws. */
  step: string;
  /** `<step>-narrowing.png`: relative, beside the transcript (or in the same thread). */
  file: string;
  data: ChartData;
}

/** How many candidates a bisection started from: its fixed list, or the lines given at its step. */
function candidateCount(record: WalkthroughRecord, stepId: string): number {
  const step = stepById(record, stepId);
  if (step.kind !== 'bisection') return 0;
  return Array.isArray(step.candidates)
    ? step.candidates.length
    : stepContext(record).linesOf(step.candidates.from_step).length;
}

/**
 * The charts of a walkthrough's answers, derived from its record alone so the transcript and the
 * surfaces that post or write the files name the same ones: each bisection's narrowing, round by round.
 */
export function walkthroughCharts(record: WalkthroughRecord): WalkthroughChart[] {
  return record.path.flatMap((entry) => {
    const answer = entry.answer;
    if (answer.kind !== 'bisection' || answer.rounds.length === 0) return [];
    const step = stepById(record, entry.step);
    const symptom =
      step.kind === 'bisection' ? fillKnown(step.symptom, stepContext(record).values) : undefined;
    const data: ChartData = {
      kind: 'narrowing',
      id: `${entry.step}-narrowing`,
      title: `Bisection: ${step.title}`,
      total: candidateCount(record, entry.step),
      rounds: answer.rounds,
      found: answer.found,
      ...(symptom ? { symptom } : {}),
    };
    return [{ step: entry.step, file: `${entry.step}-narrowing.png`, data }];
  });
}
