import type { StepView } from '../../../walkthrough/index.ts';
import { answerLines } from './answer-lines.ts';

/** A paste step at the terminal: how it is answered. */
export function pasteBody(view: StepView): string[] {
  return answerLines(view);
}
