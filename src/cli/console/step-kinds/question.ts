import type { StepView } from '../../../walkthrough/index.ts';
import { answerLines } from './answer-lines.ts';

/** A question step at the terminal: how it is answered. */
export function questionBody(view: StepView): string[] {
  return answerLines(view);
}
