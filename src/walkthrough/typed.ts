import type { WalkthroughEvent } from './events.ts';
import { stepKind } from './steps/registry.ts';
import type { StepView, TypedAnswer } from './steps/step-view.ts';

export type { TypedAnswer } from './steps/step-view.ts';

/** Words a person types for an option instead of its number. */
const WORDS: Readonly<Record<string, WalkthroughEvent['type']>> = {
  done: 'done',
  skip: 'skip',
  cant: 'cant',
  "can't": 'cant',
};

/** The option a word names (done, skip, can't), when the step offers it. */
export function optionByWord(view: StepView, text: string): TypedAnswer | undefined {
  const type = WORDS[text.trim().toLowerCase()];
  const option = type ? view.options.find((o) => o.event.type === type) : undefined;
  return option ? { event: option.event } : undefined;
}

/**
 * Text typed or replied for a step that takes a value or command output, read by its kind: the event,
 * or why the text cannot answer it. Undefined for steps answered only by their options.
 */
export function readTyped(view: StepView, text: string): TypedAnswer | undefined {
  return stepKind(view.kind).readText?.(view, text);
}

/** A line typed at a terminal: an option's word, what the step's kind reads from it, or an option's number. */
export function answerFromText(view: StepView, text: string): TypedAnswer {
  const answer = optionByWord(view, text) ?? readTyped(view, text);
  if (answer) return answer;
  const n = Number(text.trim());
  const option = Number.isInteger(n) ? view.options[n - 1] : undefined;
  return option
    ? { event: option.event }
    : { refusal: `answer with a number from 1 to ${view.options.length}` };
}
