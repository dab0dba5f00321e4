import { z } from 'zod';
import { baseStep, defineStepKind, fillKnown, wrongEvent } from './kit.ts';

/** The end: what was found, the fix (with computed values), and how to check it worked. */
const ConclusionStepSchema = z.strictObject({
  ...baseStep,
  kind: z.literal('conclusion'),
  fix: z.array(z.string().min(1)).min(1),
  verify: z.array(z.string().min(1)).min(1),
});

const EXPECTS = 'nothing: the walkthrough is finished';

/** A conclusion is reached, never answered: it has no answer schema. */
export const conclusion = defineStepKind<z.infer<typeof ConclusionStepSchema>, never>({
  schema: ConclusionStepSchema,
})({
  expects: EXPECTS,
  final: true,
  edges: () => [],
  templates: (step) => [...step.fix, ...step.verify],
  answer(step, event) {
    throw wrongEvent(step, EXPECTS, event);
  },
  options: () => [],
  details: (step, ctx) => ({
    fix: step.fix.map((t) => fillKnown(t, ctx.values)),
    verify: step.verify.map((t) => fillKnown(t, ctx.values)),
  }),
  answerText: () => '',
});
