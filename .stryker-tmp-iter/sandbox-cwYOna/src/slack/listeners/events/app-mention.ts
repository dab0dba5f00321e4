// @ts-nocheck
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import type { SlackDeps } from '../../deps.ts';
import { SlackFileSchema } from '../../download.ts';
import { handleSharedFiles } from '../../shared-files.ts';
import { helpView } from '../../views/help.ts';

type Args = SlackEventMiddlewareArgs<'app_mention'> & AllMiddlewareArgs;

const MentionSchema = z.looseObject({
  channel: z.string(),
  user: z.string(),
  ts: z.string(),
  thread_ts: z.string().optional(),
  files: z.array(SlackFileSchema).optional(),
});

/** @memdoctor with a file: diagnose it in the thread. Without a file: say how to use the bot. */
export function appMention(deps: SlackDeps) {
  return async ({ event, client, context }: Args): Promise<void> => {
    const parsed = MentionSchema.safeParse(event);
    if (!parsed.success || !context.teamId) return;
    const mention = parsed.data;
    const threadTs = mention.thread_ts ?? mention.ts;
    if (!mention.files || mention.files.length === 0) {
      await client.chat.postEphemeral({
        channel: mention.channel,
        user: mention.user,
        thread_ts: threadTs,
        ...helpView(),
      });
      return;
    }
    await handleSharedFiles(
      deps,
      client,
      {
        workspace: context.teamId,
        channel: mention.channel,
        ts: mention.ts,
        threadTs,
        user: mention.user,
        files: mention.files,
      },
      true,
    );
  };
}
