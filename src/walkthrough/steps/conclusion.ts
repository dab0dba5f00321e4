import { z } from 'zod';
import { fill } from '../../engine/templates.ts';
import { defineStepKind } from './step-kind.ts';
import { fillKnown, wrongEvent } from './step-rules.ts';
import { baseStep } from './step-schemas.ts';

/**
 * A fix line that shows computed settings when the figures are known (`{{overhead.suggested}}` from
 * the diagnosis, a parsed value) and a plain sentence otherwise, as a playbook action does.
 */
const ComputedFixSchema = z.strictObject({
  text: z.string().min(1),
  /** Shown when a value of `text` is not known on this walk; it may only name values every path knows. */
  otherwise: z.string().min(1),
});

type ComputedFix = z.infer<typeof ComputedFixSchema>;

/** The end: what was found, the fix (with computed values), and how to check it worked. */
const ConclusionStepSchema = z.strictObject({
  ...baseStep,
  kind: z.literal('conclusion'),
  fix: z.array(z.union([z.string().min(1), ComputedFixSchema])).min(1),
  verify: z.array(z.string().min(1)).min(1),
});

/** A fix line as shown: a computed one with its figures when they are all known, its fallback otherwise. */
export function fixText(line: string | ComputedFix, values: Readonly<Record<string, string>>): string {
  if (typeof line === 'string') return fillKnown(line, values);
  return fill(line.text, values) ?? fillKnown(line.otherwise, values);
}

const EXPECTS = 'nothing: the walkthrough is finished';

/** A conclusion is reached, never answered: it has no answer schema. */
export const conclusion = defineStepKind<z.infer<typeof ConclusionStepSchema>, never>({
  schema: ConclusionStepSchema,
})({
  expects: EXPECTS,
  final: true,
  edges: () => [],
  // A computed fix line falls back to its `otherwise` sentence, which must then be fully known.
  templates: (step) => [...step.fix.map((f) => (typeof f === 'string' ? f : f.otherwise)), ...step.verify],
  answer(step, event) {
    throw wrongEvent(step, EXPECTS, event);
  },
  options: () => [],
  details: (step, ctx) => ({
    fix: step.fix.map((t) => fixText(t, ctx.values)),
    verify: step.verify.map((t) => fillKnown(t, ctx.values)),
  }),
  answerText: () => '',
});
