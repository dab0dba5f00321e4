// @ts-nocheck
import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import type { SlackDeps } from '../../deps.ts';
import { alternativesView } from '../../views/diagnosis.ts';

type Args = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

const AlternativesSchema = z.array(z.strictObject({ p: z.string(), t: z.string(), c: z.number() }));

/** "Show alternatives": the other candidates the engine ranked, posted in the diagnosis thread. */
export function showAlternatives(deps: SlackDeps) {
  return async ({ ack, body, action, client }: Args): Promise<void> => {
    await ack();
    const channel = body.channel?.id ?? body.container.channel_id;
    const message = body.message;
    if (!channel || !message) return;
    const refs = AlternativesSchema.safeParse(JSON.parse(action.value ?? '[]'));
    if (!refs.success) return;
    await client.chat.postMessage({
      channel,
      thread_ts: message.thread_ts ?? message.ts,
      ...alternativesView(refs.data, deps.playbooks),
    });
  };
}
