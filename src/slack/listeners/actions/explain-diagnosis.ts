import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import { explanationView } from '../../views/diagnosis.ts';
import { readExplainRef } from '../../views/explain-ref.ts';

type Args = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

/** "Explain (model)" on a diagnosis: the model's explanation goes into the diagnosis' thread. */
export function explainDiagnosis(deps: SlackDeps) {
  return async ({ ack, body, action, client }: Args): Promise<void> => {
    await ack();
    const channel = body.channel?.id ?? body.container.channel_id;
    const message = body.message;
    const diagnosis = readExplainRef(action.value);
    if (!channel || !message || !diagnosis) return;
    const user = body.user.id;
    const thread_ts = message.thread_ts ?? message.ts;
    const tell = (text: string) => client.chat.postEphemeral({ channel, user, thread_ts, text });
    const playbook = deps.playbooks.find((p) => p.id === diagnosis.playbook);
    if (!deps.assist || !playbook) {
      await tell(
        'No model is configured here, so there is nothing to explain with; the diagnosis stands as shown.',
      );
      return;
    }
    const workspace = body.team?.id ?? body.user.team_id ?? 'slack';
    const outcome = await deps.assist.explain({ workspace, diagnosis, playbook });
    if (outcome.value === undefined) {
      await tell(
        `The model could not explain this diagnosis (${outcome.note}); the diagnosis itself stands.`,
      );
      return;
    }
    await client.chat.postMessage({ channel, thread_ts, ...explanationView(diagnosis.title, outcome.value) });
  };
}
