import type { StepView } from '../../../walkthrough/index.ts';
import type { Block } from '../blocks.ts';
import { answerBlocks } from './answer-blocks.ts';

/** A measurement step in a thread: how it is answered (its buttons follow in the step message). */
export function measurementBlocks(view: StepView): Block[] {
  return answerBlocks(view);
}
