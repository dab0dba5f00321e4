// @ts-nocheck
import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { z } from 'zod';
import type { SlackDeps } from '../../deps.ts';
import { diagnosePaste } from '../../diagnose.ts';
import { explainFailure } from '../../failures.ts';
import { BLOCK, INPUT } from '../../ids.ts';
import { diagnosisView } from '../../views/diagnosis.ts';
import { noticeView } from '../../views/help.ts';
import { engineFrom } from '../../views/paste-modal.ts';

type Args = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

const MetaSchema = z.strictObject({ channel: z.string().min(1) });

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
    const meta = MetaSchema.parse(JSON.parse(view.private_metadata));
    const engine = engineFrom(values[BLOCK.modalEngine]?.[INPUT.engine]?.selected_option?.value);
    const user = body.user.id;
    try {
      const { report, known, suggestion } = await diagnosePaste(deps, text, engine, body.team?.id);
      await client.chat.postMessage({
        channel: meta.channel,
        ...diagnosisView(report, deps.playbooks, user, known, {
          ...(suggestion ? { suggestion } : {}),
          explain: deps.assist !== undefined,
        }),
      });
    } catch (error) {
      const failure = explainFailure(error);
      deps.log.warn({ code: failure.code, channel: meta.channel }, 'modal diagnosis failed');
      await client.chat.postEphemeral({ channel: meta.channel, user, ...noticeView(failure.message) });
    }
  };
}
