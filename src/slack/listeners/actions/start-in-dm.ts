import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import { noticeView } from '../../views/help.ts';
import { walkRootView } from '../../views/step.ts';
import { readWalkSeed } from '../../views/walk-seed.ts';
import { startInThread, walkable } from '../../walk-start.ts';

type Args = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

/** "Start walkthrough in a DM" on a private diagnosis: the walkthrough runs in the person's DM. */
export function startInDm(deps: SlackDeps) {
  return async ({ ack, body, action, client, respond }: Args): Promise<void> => {
    await ack();
    const seed = readWalkSeed(action.value);
    const workspace = body.team?.id ?? body.user.team_id;
    if (!seed || !workspace) return;
    const user = body.user.id;
    const playbook = walkable(deps, seed.p);
    if (typeof playbook === 'string') {
      await respond({ response_type: 'ephemeral', replace_original: false, ...noticeView(playbook) });
      return;
    }
    const dm = await client.conversations.open({ users: user });
    const channel = dm.channel?.id;
    if (!channel) return;
    const root = await client.chat.postMessage({ channel, ...walkRootView(playbook, user) });
    if (!root.ts) return;
    await startInThread(deps, client, {
      workspace,
      thread: { channel, ts: root.ts },
      owner: user,
      playbook: playbook.id,
      diagnosis: { facts: seed.f, values: seed.v },
    });
    await respond({
      response_type: 'ephemeral',
      replace_original: false,
      text: 'The walkthrough is running in your DM with memdoctor.',
    });
  };
}
