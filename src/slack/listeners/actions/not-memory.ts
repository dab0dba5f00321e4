import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { countOutcome } from '../../../usecases/record-outcome.ts';
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
    const playbook = body.actions[0]?.value;
    const workspace = body.team?.id ?? body.user.team_id;
    if (playbook && workspace) await countOutcome(deps, { workspace, playbook }, 'not_memory');
    deps.log.info({ channel, playbook, user: body.user.id }, 'marked not memory');
  };
}
