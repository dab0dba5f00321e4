// @ts-nocheck
import { z } from 'zod';
import { WalkthroughInvalidEventError } from '../errors.ts';
import { WalkthroughEventSchema } from './events.ts';
import type { StepOption, StepView } from './view.ts';

/** Slack caps a button's value at 2000 characters. */
const MAX_VALUE = 2000;

/** What a button carries: which walkthrough, the version its message showed, and the event. */
export const ActionValueSchema = z.strictObject({
  w: z.string().min(1),
  v: z.number().int().min(0),
  e: WalkthroughEventSchema,
});

export type ActionValue = z.infer<typeof ActionValueSchema>;

/**
 * A button value for an option of a step view: compact JSON that {@link parseActionValue} reads back.
 * Carrying the version lets `apply` refuse a click on a message that is no longer current.
 */
export function actionValue(view: StepView, option: StepOption): string {
  const value = JSON.stringify({ w: view.walkthrough, v: view.version, e: option.event });
  if (value.length > MAX_VALUE)
    throw new WalkthroughInvalidEventError('this choice is too long to put on a button');
  return value;
}

/** Reads a button value back (a boundary: it comes from Slack), or says what is wrong with it. */
export function parseActionValue(value: string): ActionValue {
  let raw: unknown;
  try {
    raw = JSON.parse(value);
  } catch {
    raw = undefined;
  }
  const parsed = ActionValueSchema.safeParse(raw);
  if (!parsed.success)
    throw new WalkthroughInvalidEventError('this button does not belong to a memdoctor walkthrough step.');
  return parsed.data;
}
