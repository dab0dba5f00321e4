import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import { readTyped, type StepView, type TypedAnswer } from '../../../walkthrough/index.ts';
import { answerStep } from '../../answer-flow.ts';
import type { SlackDeps } from '../../deps.ts';
import { pastedOutput, waitingIn } from '../../waiting.ts';

type Args = SlackEventMiddlewareArgs<'message'> & AllMiddlewareArgs;

/** A plain reply in a thread (no subtype: edits, joins and file shares are other listeners' business). */
const ReplySchema = z.looseObject({
  subtype: z.undefined().optional(),
  channel: z.string(),
  user: z.string(),
  ts: z.string(),
  text: z.string(),
  thread_ts: z.string(),
  parent_user_id: z.string(),
});

/** A reply that starts like a figure is an attempt at one; other replies that do not read are talk. */
const LOOKS_LIKE_A_FIGURE = /^\s*[-+.\d]/;

/** The event a reply makes for the waiting step, why it cannot answer it, or nothing (talk). */
function replyAnswer(view: StepView, text: string): TypedAnswer | undefined {
  // Command output comes fenced or on several lines; a one-line remark ("looking now") is talk.
  const typed = view.input === 'output' ? pastedOutput(text) : text;
  if (typed === undefined) return undefined;
  const answer = readTyped(view, typed);
  if (answer && 'refusal' in answer && !LOOKS_LIKE_A_FIGURE.test(text)) return undefined;
  return answer;
}

/**
 * A reply in a memdoctor thread whose walkthrough waits for command output or a number: the reply
 * answers that step. Other replies are conversation and are ignored.
 */
export function threadReply(deps: SlackDeps) {
  return async ({ event, client, context }: Args): Promise<void> => {
    const parsed = ReplySchema.safeParse(event);
    if (!parsed.success || !context.teamId || parsed.data.parent_user_id !== context.botUserId) return;
    const reply = parsed.data;
    const thread = { channel: reply.channel, ts: reply.thread_ts };
    const waiting = await waitingIn(deps, context.teamId, thread, ['output', 'value']);
    if (!waiting) return;
    const tell = async (text: string) => {
      await client.chat.postEphemeral({
        channel: reply.channel,
        user: reply.user,
        thread_ts: thread.ts,
        text,
      });
    };
    const answer = replyAnswer(waiting.view, reply.text);
    if (!answer) return;
    if ('refusal' in answer) return tell(answer.refusal);
    await answerStep(deps, client, {
      record: waiting.record,
      event: answer.event,
      user: reply.user,
      thread,
      tell,
    });
  };
}
