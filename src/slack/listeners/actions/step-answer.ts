import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { answerStep } from '../../answer-flow.ts';
import type { SlackDeps } from '../../deps.ts';
import type { Block } from '../../views/blocks.ts';
import { readStepButton } from '../../views/step-button.ts';

type Args = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

const EXPIRED =
  'This walkthrough is no longer stored (it may have expired). Start a new one from the diagnosis.';

/** A click on a walkthrough step's button: the answer goes to the answer-step use case. */
export function stepAnswered(deps: SlackDeps) {
  return async ({ ack, body, action, client }: Args): Promise<void> => {
    await ack();
    const channel = body.channel?.id ?? body.container.channel_id;
    const message = body.message;
    const value = readStepButton(action.value);
    if (!channel || !message || !value) return;
    const user = body.user.id;
    const thread = { channel, ts: message.thread_ts ?? message.ts };
    const tell = async (text: string) => {
      await client.chat.postEphemeral({ channel, user, thread_ts: thread.ts, text });
    };
    await answerStep(deps, client, {
      walkthrough: value.w,
      event: value.e,
      user,
      thread,
      message: { ts: message.ts, blocks: (message.blocks ?? []) as Block[] },
      label: action.text.text,
      expectedVersion: value.v,
      goneText: EXPIRED,
      tell,
    });
  };
}
