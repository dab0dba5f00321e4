import { z } from 'zod';
import { type StepView, type WalkthroughEvent, WalkthroughEventSchema } from '../../walkthrough/index.ts';
import { packJson, readJson } from './codec.ts';

/**
 * What a step button carries: the walkthrough, its version when the step was shown (a later click
 * on the message is a stale one), and the event, which names its step.
 */
export const StepButtonSchema = z.strictObject({
  w: z.string().min(1),
  v: z.number().int().min(0),
  e: WalkthroughEventSchema,
});

export type StepButtonValue = z.infer<typeof StepButtonSchema>;

/** The value of a button of a step's message that sends `event`. */
export function packStepButton(
  view: Pick<StepView, 'walkthrough' | 'version'>,
  event: WalkthroughEvent,
): string {
  return packJson({ w: view.walkthrough, v: view.version, e: event } satisfies StepButtonValue);
}

/** A step button's value back from a click, or undefined when it is not one. */
export function readStepButton(value: string | undefined): StepButtonValue | undefined {
  return readJson(StepButtonSchema, value);
}
