import { z } from 'zod';
import { WalkthroughInvalidEventError } from '../../errors.ts';
import { defineStepKind } from './step-kind.ts';
import { edgeIf, wrongEvent } from './step-rules.ts';
import { baseStep, stepId } from './step-schemas.ts';
import type { StepOption } from './step-view.ts';

/** Something to do; the user answers done, skip or can't. */
const InstructionStepSchema = z.strictObject({
  ...baseStep,
  kind: z.literal('instruction'),
  next: stepId,
  on_skip: stepId.optional(),
  on_cant: stepId.optional(),
});

const InstructionAnswerSchema = z.strictObject({
  kind: z.literal('instruction'),
  outcome: z.enum(['done', 'skip', 'cant']),
});

const EXPECTS = 'answer done, skip or can’t';

const OUTCOME_TEXT = { done: 'done', skip: 'skipped', cant: "can't" } as const;

export const instruction = defineStepKind({
  schema: InstructionStepSchema,
  answerSchema: InstructionAnswerSchema,
})({
  expects: EXPECTS,
  edges: (step) => [
    { field: 'next', target: step.next, label: 'done', learns: [step.id] },
    ...edgeIf('on_skip', step.on_skip, 'skip', []),
    ...edgeIf('on_cant', step.on_cant, 'cant', [step.id]),
  ],
  answer(step, event) {
    if (event.type === 'done')
      return { outcome: { answer: { kind: 'instruction', outcome: 'done' }, next: step.next } };
    if (event.type === 'skip')
      return {
        outcome: { answer: { kind: 'instruction', outcome: 'skip' }, next: step.on_skip ?? step.next },
      };
    if (event.type !== 'cant') throw wrongEvent(step, EXPECTS, event);
    if (!step.on_cant)
      throw new WalkthroughInvalidEventError(
        `step "${step.title}" has no way around it: carry it out and answer done, or skip it.`,
      );
    return { outcome: { answer: { kind: 'instruction', outcome: 'cant' }, next: step.on_cant } };
  },
  options(step) {
    const s = { step: step.id };
    const options: StepOption[] = [
      { label: 'Done', event: { type: 'done', ...s } },
      { label: 'Skip', event: { type: 'skip', ...s } },
    ];
    if (step.on_cant) options.push({ label: "Can't do this", event: { type: 'cant', ...s } });
    return options;
  },
  answerText: (answer) => OUTCOME_TEXT[answer.outcome],
});
