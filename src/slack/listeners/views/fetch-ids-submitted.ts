import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import { answerByFetch } from '../../fetch-answer.ts';
import { readFetchIds, readFetchIdsMeta } from '../../views/fetch-ids-modal.ts';

type Args = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/**
 * The ids form was submitted: an empty or broken field is shown under itself and the form stays;
 * otherwise the form closes at once and the step is fetched with the ids given.
 */
export function fetchIdsSubmitted(deps: SlackDeps) {
  return async ({ ack, view, body, client }: Args): Promise<void> => {
    const meta = readFetchIdsMeta(view.private_metadata);
    if (!meta) {
      await ack();
      deps.log.warn({ callbackId: view.callback_id }, 'fetch-ids form submitted without its metadata');
      return;
    }
    const typed = readFetchIds(meta.ids, view.state.values);
    if ('errors' in typed) {
      await ack({ response_action: 'errors', errors: typed.errors });
      return;
    }
    await ack();
    await answerByFetch(deps, client, {
      walkthrough: meta.w,
      version: meta.v,
      user: body.user.id,
      workspace: body.team?.id ?? body.user.team_id ?? '',
      thread: { channel: meta.channel, ts: meta.thread },
      ids: typed.ids,
    });
  };
}
