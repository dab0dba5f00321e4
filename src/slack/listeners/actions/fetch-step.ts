import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { fetchStep } from '../../../usecases/fetch-step.ts';
import { settleAnswer } from '../../answer-flow.ts';
import type { SlackDeps } from '../../deps.ts';
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
    if (!channel || !message || !value || !deps.connectors) return;
    const user = body.user.id;
    const thread = { channel, ts: message.thread_ts ?? message.ts };
    const tell = async (text: string) => {
      await client.chat.postEphemeral({ channel, user, thread_ts: thread.ts, text });
    };
    const result = await fetchStep(
      { ...deps, connectors: deps.connectors },
      {
        walkthrough: value.w,
        actor: user,
        expectedVersion: value.v,
        mayAnswer: (owner) => deps.oncall.mayAnswer(client, user, owner),
      },
    );
    if (result.kind === 'not-fetched')
      return tell(`${result.error.message} The step can still be answered by hand.`);
    const paths = (result.fetched ?? []).map((f) => f.from.path).join(', ');
    await settleAnswer(
      deps,
      client,
      {
        walkthrough: value.w,
        event: { type: 'paste', text: paths || 'fetched' },
        user,
        thread,
        message: { ts: message.ts, blocks: (message.blocks ?? []) as Block[] },
        tell,
      },
      result,
    );
  };
}
