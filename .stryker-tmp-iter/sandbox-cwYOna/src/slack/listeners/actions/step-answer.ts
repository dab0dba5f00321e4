// @ts-nocheck
import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import { WalkthroughEventSchema } from '../../../walkthrough/index.ts';
import { answerStep } from '../../answer-flow.ts';
import type { SlackDeps } from '../../deps.ts';
import type { Block } from '../../views/blocks.ts';

type Args = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

/** A step button's value is a boundary: parsed strictly. */
const ValueSchema = z.strictObject({
  w: z.string().min(1),
  v: z.number().int().min(0),
  e: WalkthroughEventSchema,
});

function parseValue(value: string | undefined) {
  try {
    return ValueSchema.safeParse(JSON.parse(value ?? '')).data;
  } catch {
    return undefined;
  }
}

/** A click on a walkthrough step's button: the answer goes to the walkthrough service. */
export function stepAnswered(deps: SlackDeps) {
  return async ({ ack, body, action, client }: Args): Promise<void> => {
    await ack();
    const channel = body.channel?.id ?? body.container.channel_id;
    const message = body.message;
    const value = parseValue(action.value);
    if (!channel || !message || !value) return;
    const user = body.user.id;
    const thread = { channel, ts: message.thread_ts ?? message.ts };
    const tell = async (text: string) => {
      await client.chat.postEphemeral({ channel, user, thread_ts: thread.ts, text });
    };
    const record = await deps.walkthroughs.get(value.w).catch(() => undefined);
    if (!record) {
      await tell(
        'This walkthrough is no longer stored (it may have expired). Start a new one from the diagnosis.',
      );
      return;
    }
    await answerStep(deps, client, {
      record,
      event: value.e,
      user,
      thread,
      message: { ts: message.ts, blocks: (message.blocks ?? []) as Block[] },
      label: action.text.text,
      expectedVersion: value.v,
      tell,
    });
  };
}
