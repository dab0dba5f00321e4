// @ts-nocheck
import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import { readWalkSeed } from '../../walk-seed.ts';
import { cannotStart, startInThread } from '../../walk-start.ts';

type Args = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

/** How long a Start click holds its thread against a second one. */
const START_CLAIM_SECONDS = 10;

/** "Start walkthrough" on a diagnosis (or an alternative): the walkthrough runs in that thread. */
export function startWalkthrough(deps: SlackDeps) {
  return async ({ ack, body, action, client }: Args): Promise<void> => {
    await ack();
    const channel = body.channel?.id ?? body.container.channel_id;
    const message = body.message;
    const seed = readWalkSeed(action.value);
    const workspace = body.team?.id ?? body.user.team_id;
    if (!channel || !message || !seed || !workspace) return;
    const user = body.user.id;
    const thread = { channel, ts: message.thread_ts ?? message.ts };
    // Two quick clicks (or two people) must not start two walkthroughs in one thread: the first
    // claims the thread briefly, long enough for its walkthrough to be stored and found.
    const refusal =
      (await cannotStart(deps, workspace, thread, seed.p)) ??
      ((await deps.dedupe.firstTime(`start:${channel}:${thread.ts}`, START_CLAIM_SECONDS))
        ? undefined
        : 'A walkthrough is already being started in this thread.');
    if (refusal) {
      await client.chat.postEphemeral({ channel, user, thread_ts: thread.ts, text: refusal });
      return;
    }
    await startInThread(deps, client, {
      workspace,
      thread,
      owner: user,
      playbook: seed.p,
      diagnosis: { facts: seed.f, values: seed.v },
    });
  };
}
