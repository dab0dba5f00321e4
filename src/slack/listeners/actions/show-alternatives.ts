import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import { readAlternatives } from '../../views/alternatives.ts';
import { alternativesView } from '../../views/diagnosis.ts';

type Args = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

/** "Show alternatives": the other candidates the engine ranked, posted in the diagnosis thread. */
export function showAlternatives(deps: SlackDeps) {
  return async ({ ack, body, action, client }: Args): Promise<void> => {
    await ack();
    const channel = body.channel?.id ?? body.container.channel_id;
    const message = body.message;
    if (!channel || !message) return;
    const refs = readAlternatives(action.value);
    if (!refs) return;
    await client.chat.postMessage({
      channel,
      thread_ts: message.thread_ts ?? message.ts,
      ...alternativesView(refs, deps.playbooks),
    });
  };
}
