import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import { fetchIdsModal, readFetchIdsButton } from '../../views/fetch-ids-modal.ts';

type Args = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

/** "Fetch from ...…" on a step whose fetch lacks ids: opens the form that asks for them. */
export function fetchIdsAsked(deps: SlackDeps) {
  return async ({ ack, body, action, client }: Args): Promise<void> => {
    await ack();
    const channel = body.channel?.id ?? body.container.channel_id;
    const message = body.message;
    const value = readFetchIdsButton(action.value);
    if (!channel || !message || !value || !deps.connectors) return;
    const thread = message.thread_ts ?? message.ts;
    await client.views.open({
      trigger_id: body.trigger_id,
      view: fetchIdsModal({ ...value, channel, thread }),
    });
  };
}
