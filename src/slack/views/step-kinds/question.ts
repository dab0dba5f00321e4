import type { StepView } from '../../../walkthrough/index.ts';
import type { Block } from '../blocks.ts';
import { answerBlocks } from './answer-blocks.ts';

/** A question step in a thread: how it is answered (its buttons follow in the step message). */
export function questionBlocks(view: StepView): Block[] {
  return answerBlocks(view);
}
