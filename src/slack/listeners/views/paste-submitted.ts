import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { postCharts } from '../../charts.ts';
import type { SlackDeps } from '../../deps.ts';
import { diagnosePaste, diagnosisMessage } from '../../diagnose.ts';
import { explainFailure } from '../../failures.ts';
import { BLOCK, INPUT, PRIVATE_IDS } from '../../ids.ts';
import { noticeView } from '../../views/help.ts';
import { engineFrom, readPasteModalMeta } from '../../views/paste-modal.ts';
import { privateDiagnosis } from '../../views/private.ts';

type Args = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/** The paste modal was submitted: close it at once, then diagnose and post in its channel. */
export function pasteSubmitted(deps: SlackDeps) {
  return async ({ ack, view, body, client }: Args): Promise<void> => {
    const values = view.state.values;
    const text = values[BLOCK.modalText]?.[INPUT.text]?.value ?? '';
    if (text.trim() === '') {
      await ack({
        response_action: 'errors',
        errors: { [BLOCK.modalText]: 'Paste the error or log first.' },
      });
      return;
    }
    await ack();
    const meta = readPasteModalMeta(view.private_metadata);
    if (!meta) {
      deps.log.warn({ callbackId: view.callback_id }, 'paste modal submitted without its channel');
      return;
    }
    const engine = engineFrom(values[BLOCK.modalEngine]?.[INPUT.engine]?.selected_option?.value);
    const user = body.user.id;
    try {
      const result = await diagnosePaste(deps, text, engine, body.team?.id);
      const view = diagnosisMessage(deps, result, user);
      const only = values[PRIVATE_IDS.modalBlock]?.[PRIVATE_IDS.modalInput]?.selected_options ?? [];
      if (only.some((o) => o.value === PRIVATE_IDS.modalOption))
        await client.chat.postEphemeral({ channel: meta.channel, user, ...privateDiagnosis(view) });
      else {
        const posted = await client.chat.postMessage({ channel: meta.channel, ...view });
        if (posted.ts)
          await postCharts(deps, client, [result.chart], { channel: meta.channel, threadTs: posted.ts });
      }
    } catch (error) {
      const failure = explainFailure(error);
      deps.log.warn({ code: failure.code, channel: meta.channel }, 'modal diagnosis failed');
      await client.chat.postEphemeral({ channel: meta.channel, user, ...noticeView(failure.message) });
    }
  };
}
