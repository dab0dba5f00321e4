import type { StepView } from '../../../walkthrough/index.ts';
import { answerLines } from './answer-lines.ts';

/** A instruction step at the terminal: how it is answered. */
export function instructionBody(view: StepView): string[] {
  return answerLines(view);
}
