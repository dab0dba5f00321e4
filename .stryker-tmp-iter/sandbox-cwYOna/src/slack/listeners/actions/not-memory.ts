// @ts-nocheck
import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import type { Block } from '../../views/blocks.ts';
import { markedNotMemory } from '../../views/diagnosis.ts';

type Args = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

/** "Not a memory problem": the diagnosis loses its buttons and says who dismissed it. */
export function notMemory(deps: SlackDeps) {
  return async ({ ack, body, client }: Args): Promise<void> => {
    await ack();
    const message = body.message;
    const channel = body.channel?.id ?? body.container.channel_id;
    if (!message || !channel) return;
    const view = markedNotMemory((message.blocks ?? []) as Block[], body.user.id);
    await client.chat.update({ channel, ts: message.ts, ...view });
    deps.log.info({ channel, playbook: body.actions[0]?.value, user: body.user.id }, 'marked not memory');
  };
}
