import { stepContext } from './known.ts';
import type { Answer, WalkthroughRecord } from './record.ts';
import { type Step, stepKind } from './steps/registry.ts';
import type { AnswerEvent, Effect as KindEffect, ParseFn } from './steps/step-kind.ts';

export type { ParseFn } from './steps/step-kind.ts';

/** What an answer does: finish the step (an outcome), or add a round and stay. */
export type Effect = KindEffect<Answer>;

/** What an answer event does at the current step; throws WalkthroughInvalidEventError or ParseFailedError. */
export function answerStep(
  record: WalkthroughRecord,
  step: Step,
  event: AnswerEvent,
  parse: ParseFn,
): Effect {
  return stepKind(step.kind).answer(step, event, stepContext(record), parse);
}
