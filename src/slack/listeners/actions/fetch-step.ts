import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import { answerByFetch } from '../../fetch-answer.ts';
import type { Block } from '../../views/blocks.ts';
import { readFetchButton } from '../../views/fetch-button.ts';

type Args = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

/**
 * A click on "Fetch from ...": the fetch-step use case answers the step from its connector, and the
 * answer is shown as a pasted one would be. A fault is told to the person; the step still takes a paste.
 */
export function stepFetched(deps: SlackDeps) {
  return async ({ ack, body, action, client }: Args): Promise<void> => {
    await ack();
    const channel = body.channel?.id ?? body.container.channel_id;
    const message = body.message;
    const value = readFetchButton(action.value);
    if (!channel || !message || !value) return;
    await answerByFetch(deps, client, {
      walkthrough: value.w,
      version: value.v,
      user: body.user.id,
      workspace: body.team?.id ?? body.user.team_id ?? '',
      thread: { channel, ts: message.thread_ts ?? message.ts },
      message: { ts: message.ts, blocks: (message.blocks ?? []) as Block[] },
    });
  };
}
