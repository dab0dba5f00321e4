import type { StepView } from '../../../walkthrough/index.ts';
import { answerLines } from './answer-lines.ts';

/** A measurement step at the terminal: how it is answered. */
export function measurementBody(view: StepView): string[] {
  return answerLines(view);
}
