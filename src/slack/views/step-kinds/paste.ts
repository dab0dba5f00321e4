import type { StepView } from '../../../walkthrough/index.ts';
import type { Block } from '../blocks.ts';
import { answerBlocks } from './answer-blocks.ts';

/** A paste step in a thread: how it is answered (its buttons follow in the step message). */
export function pasteBlocks(view: StepView): Block[] {
  return answerBlocks(view);
}
