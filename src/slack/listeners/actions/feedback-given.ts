import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { recordFeedback } from '../../../usecases/record-outcome.ts';
import type { SlackDeps } from '../../deps.ts';
import { explainFailure } from '../../failures.ts';
import { feedbackGiven, feedbackNoteModal, feedbackOf, readFeedbackRef } from '../../views/feedback.ts';

type Args = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

/** "Did this fix it?" answered: stored once per walkthrough (a new answer replaces it), message updated. */
export function feedbackGivenAction(deps: SlackDeps) {
  return async ({ ack, body, action, client }: Args): Promise<void> => {
    await ack();
    const channel = body.channel?.id ?? body.container.channel_id;
    const ref = readFeedbackRef(action.value);
    const answer = feedbackOf(action.action_id);
    const workspace = body.team?.id ?? body.user.team_id;
    if (!channel || !body.message || !ref || !answer || !workspace) return;
    const user = body.user.id;
    try {
      const feedback = { workspace, walkthrough: ref.w, playbook: ref.p, conclusion: ref.c, answer };
      if (!(await recordFeedback(deps, feedback))) return;
    } catch (error) {
      const text = `The answer was not saved: ${explainFailure(error).message}`;
      await client.chat.postEphemeral({ channel, user, text });
      return;
    }
    deps.log.info({ walkthrough: ref.w, playbook: ref.p, conclusion: ref.c, answer, user }, 'feedback given');
    await client.chat.update({ channel, ts: body.message.ts, ...feedbackGiven(ref, answer, user) });
  };
}

/** "Add a note" under an answered prompt: a modal for a short note kept beside the answer. */
export function feedbackNoteAction(_deps: SlackDeps) {
  return async ({ ack, body, action, client }: Args): Promise<void> => {
    await ack();
    const channel = body.channel?.id ?? body.container.channel_id;
    const ref = readFeedbackRef(action.value);
    if (!channel || !body.message || !ref) return;
    await client.views.open({
      trigger_id: body.trigger_id,
      view: feedbackNoteModal(ref, { channel, ts: body.message.thread_ts ?? body.message.ts }),
    });
  };
}
