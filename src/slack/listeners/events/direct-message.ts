import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import type { SlackDeps } from '../../deps.ts';
import { diagnoseMessage } from '../../diagnose-message.ts';
import { SlackMessageSchema } from '../../message-text.ts';
import { helpView } from '../../views/help.ts';

type Args = SlackEventMiddlewareArgs<'message'> & AllMiddlewareArgs;

/**
 * A new message in a DM with the bot: a person's paste or file (thread replies in the DM belong to
 * the walkthrough listeners; edits, deletions and bots' messages are left alone).
 */
const DirectMessageSchema = SlackMessageSchema.extend({
  channel_type: z.literal('im'),
  channel: z.string(),
  user: z.string(),
  subtype: z.enum(['file_share']).optional(),
  thread_ts: z.undefined().optional(),
  bot_id: z.undefined().optional(),
});

/** A paste or a file in a DM with the bot is diagnosed there; its walkthrough runs in the DM too. */
export function directMessage(deps: SlackDeps) {
  return async ({ event, client, context }: Args): Promise<void> => {
    const parsed = DirectMessageSchema.safeParse(event);
    if (!parsed.success || !context.teamId) return;
    const message = parsed.data;
    if (!(await deps.dedupe.firstTime(`dm:${message.channel}:${message.ts}`))) return;
    const tell = async (text: string) => {
      await client.chat.postMessage({ channel: message.channel, text });
    };
    if (!message.files?.length && /^\s*help\s*$/i.test(message.text ?? '')) {
      await client.chat.postMessage({ channel: message.channel, ...helpView() });
      return;
    }
    await diagnoseMessage(deps, client, message, {
      workspace: context.teamId,
      user: message.user,
      channel: message.channel,
      tell,
    });
  };
}
