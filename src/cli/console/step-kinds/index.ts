import type { StepKindName, StepView } from '../../../walkthrough/index.ts';
import { bisectionBody } from './bisection.ts';
import { conclusionBody } from './conclusion.ts';
import { instructionBody } from './instruction.ts';
import { measurementBody } from './measurement.ts';
import { pasteBody } from './paste.ts';
import { questionBody } from './question.ts';

/** The lines under a step's title and text at the terminal. */
export type ConsoleStepBody = (view: StepView) => string[];

/**
 * Every step kind's terminal view, one file each in this folder. A Record over the kind names, so a
 * kind added to STEP_KINDS without a view here fails the type check.
 */
export const CONSOLE_STEP_BODIES: Readonly<Record<StepKindName, ConsoleStepBody>> = {
  instruction: instructionBody,
  question: questionBody,
  measurement: measurementBody,
  paste: pasteBody,
  bisection: bisectionBody,
  conclusion: conclusionBody,
};
