import type { StepKindName, StepView } from '../../../walkthrough/index.ts';
import type { Block } from '../blocks.ts';
import { bisectionBlocks } from './bisection.ts';
import { conclusionBlocks } from './conclusion.ts';
import { instructionBlocks } from './instruction.ts';
import { measurementBlocks } from './measurement.ts';
import { pasteBlocks } from './paste.ts';
import { questionBlocks } from './question.ts';

/** The blocks a step's kind adds between its title and text and its buttons. */
export type SlackStepBlocks = (view: StepView) => Block[];

/**
 * Every step kind's Slack view, one file each in this folder. A Record over the kind names, so a
 * kind added to STEP_KINDS without a view here fails the type check.
 */
export const SLACK_STEP_BLOCKS: Readonly<Record<StepKindName, SlackStepBlocks>> = {
  instruction: instructionBlocks,
  question: questionBlocks,
  measurement: measurementBlocks,
  paste: pasteBlocks,
  bisection: bisectionBlocks,
  conclusion: conclusionBlocks,
};
