import type { AllMiddlewareArgs, MessageShortcut, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import { diagnoseMessage } from '../../diagnose-message.ts';
import { SlackMessageSchema } from '../../message-text.ts';
import { noticeView } from '../../views/help.ts';

type Args = SlackShortcutMiddlewareArgs<MessageShortcut> & AllMiddlewareArgs;

/**
 * The message shortcut "Diagnose with memdoctor" on any message (a colleague's paste, an alert
 * bot's post, a message with log files): the diagnosis goes into that message's thread. Refusals
 * go back privately through the shortcut's response_url.
 */
export function diagnoseMessageShortcut(deps: SlackDeps) {
  return async ({ ack, shortcut, client, respond }: Args): Promise<void> => {
    await ack();
    const parsed = SlackMessageSchema.safeParse(shortcut.message);
    const workspace = shortcut.team?.id ?? shortcut.user.team_id;
    const tell = async (text: string) => {
      await respond({ response_type: 'ephemeral', ...noticeView(text) });
    };
    if (!parsed.success || !workspace) return tell('memdoctor could not read that message.');
    const message = parsed.data;
    deps.log.info(
      { channel: shortcut.channel.id, messageTs: message.ts, files: message.files?.length ?? 0 },
      'message shortcut',
    );
    await diagnoseMessage(deps, client, message, {
      workspace,
      user: shortcut.user.id,
      channel: shortcut.channel.id,
      threadTs: message.thread_ts ?? message.ts,
      tell,
    });
  };
}
