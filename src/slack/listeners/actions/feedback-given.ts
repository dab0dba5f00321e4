import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { recordFeedback } from '../../../usecases/record-outcome.ts';
import type { SlackDeps } from '../../deps.ts';
import { explainFailure } from '../../failures.ts';
import { feedbackTarget } from '../../feedback-gate.ts';
import { feedbackGiven, feedbackNoteModal, feedbackOf, readFeedbackRef } from '../../views/feedback.ts';

type Args = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

/**
 * "Did this fix it?" answered: checked against the stored walkthrough (feedback-gate.ts), stored
 * once per walkthrough (a new answer replaces it), message updated.
 */
export function feedbackGivenAction(deps: SlackDeps) {
  return async ({ ack, body, action, client }: Args): Promise<void> => {
    await ack();
    const channel = body.channel?.id ?? body.container.channel_id;
    const clicked = readFeedbackRef(action.value);
    const answer = feedbackOf(action.action_id);
    const workspace = body.team?.id ?? body.user.team_id;
    if (!channel || !body.message || !clicked || !answer || !workspace) return;
    const user = body.user.id;
    const thread_ts = body.message.thread_ts ?? body.message.ts;
    const tell = (text: string) => client.chat.postEphemeral({ channel, user, thread_ts, text });
    const target = await feedbackTarget(deps, client, clicked.w, { user, workspace });
    if (!target.ok) {
      deps.log.info({ walkthrough: clicked.w, user, why: target.why }, 'feedback refused');
      if (target.text) await tell(target.text);
      return;
    }
    const { ref, record } = target;
    try {
      const feedback = { workspace, walkthrough: ref.w, playbook: ref.p, conclusion: ref.c, answer };
      if (!(await recordFeedback(deps, feedback))) return;
    } catch (error) {
      await tell(`The answer was not saved: ${explainFailure(error).message}`);
      return;
    }
    deps.log.info(
      { walkthrough: record.id, playbook: ref.p, conclusion: ref.c, answer, user },
      'feedback given',
    );
    await client.chat.update({ channel, ts: body.message.ts, ...feedbackGiven(ref, answer, user) });
  };
}

/** "Add a note" under an answered prompt: a modal for a short note, for those who may answer. */
export function feedbackNoteAction(deps: SlackDeps) {
  return async ({ ack, body, action, client }: Args): Promise<void> => {
    await ack();
    const channel = body.channel?.id ?? body.container.channel_id;
    const clicked = readFeedbackRef(action.value);
    const workspace = body.team?.id ?? body.user.team_id;
    if (!channel || !body.message || !clicked || !workspace) return;
    const user = body.user.id;
    const thread_ts = body.message.thread_ts ?? body.message.ts;
    const target = await feedbackTarget(deps, client, clicked.w, { user, workspace });
    if (!target.ok) {
      deps.log.info({ walkthrough: clicked.w, user, why: target.why }, 'feedback note refused');
      if (target.text) await client.chat.postEphemeral({ channel, user, thread_ts, text: target.text });
      return;
    }
    await client.views.open({
      trigger_id: body.trigger_id,
      view: feedbackNoteModal(target.ref, { channel, ts: thread_ts }),
    });
  };
}
