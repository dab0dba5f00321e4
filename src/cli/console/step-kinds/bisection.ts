import type { StepView } from '../../../walkthrough/index.ts';
import { numbered } from './answer-lines.ts';

/** A bisection round at the terminal: what is still suspected, what to run, and the symptom to look for. */
export function bisectionBody(view: StepView): string[] {
  const b = view.bisection;
  if (!b) return [];
  return [
    `Round ${b.round}: ${b.remaining.length} of ${b.total} candidates still suspected.`,
    `Run with only: ${b.testWith.join(', ')}`,
    `(leave out: ${b.holdBack.join(', ')})`,
    `Does it show "${b.symptom}"?`,
    ...numbered(view),
  ];
}
