import type { StepView } from '../../../walkthrough/index.ts';
import { type Block, context, mrkdwn } from '../blocks.ts';

/** How a step is answered in a thread, from its input: a reply with a value, or with command output. */
export function answerBlocks(view: StepView): Block[] {
  if (view.input === 'value')
    return [context(`:straight_ruler: Reply in this thread with ${mrkdwn(view.hint ?? 'a number')}.`)];
  if (view.input === 'output') {
    const how = view.parser ? `Run ${mrkdwn(view.parser.howToGet)}, then r` : 'R';
    return [context(`:clipboard: ${how}eply in this thread with its output, or upload it as a file.`)];
  }
  return [];
}
