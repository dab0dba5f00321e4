// @ts-nocheck
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import { readMeasurement, type WalkthroughEvent } from '../../../walkthrough/index.ts';
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

type Waiting = NonNullable<Awaited<ReturnType<typeof waitingIn>>>;

/** The event a reply makes for the waiting step, why it cannot answer it, or nothing (talk). */
function replyAnswer(
  step: Waiting['step'],
  text: string,
): { event: WalkthroughEvent } | { refusal: string } | undefined {
  if (step.kind === 'paste') {
    const output = pastedOutput(text);
    return output ? { event: { type: 'paste', text: output, step: step.id } } : undefined;
  }
  if (step.kind !== 'measurement') return undefined;
  // "0.85", "85%", "3.5 GiB", "7.8 min / 1.2 h": converted to the step's unit, or refused with why.
  const read = readMeasurement(text, step.unit);
  if (read.ok) return { event: { type: 'measure', value: read.value, step: step.id } };
  // A reply that starts like a figure but cannot be read is told why; other replies are talk.
  return /^\s*[-+.\d]/.test(text) ? { refusal: read.error } : undefined;
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
    const waiting = await waitingIn(deps, context.teamId, thread, ['paste', 'measurement']);
    if (!waiting) return;
    const tell = async (text: string) => {
      await client.chat.postEphemeral({
        channel: reply.channel,
        user: reply.user,
        thread_ts: thread.ts,
        text,
      });
    };
    const answer = replyAnswer(waiting.step, reply.text);
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
