import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import type { SlackDeps } from '../../deps.ts';
import { SlackFileSchema } from '../../download.ts';
import { diagnoseSharedFiles } from '../../shared-files.ts';

type Args = SlackEventMiddlewareArgs<'message'> & AllMiddlewareArgs;

/** The fields of a `message` event with subtype `file_share` that memdoctor uses. */
export const FileShareSchema = z.looseObject({
  subtype: z.literal('file_share'),
  channel: z.string(),
  user: z.string(),
  ts: z.string(),
  thread_ts: z.string().optional(),
  parent_user_id: z.string().optional(),
  files: z.array(SlackFileSchema).min(1),
});

/**
 * A file uploaded into a thread that memdoctor started (its parent message is the bot's): diagnose
 * it and reply there. Files elsewhere are left alone unless someone mentions @memdoctor.
 */
export function fileShared(deps: SlackDeps) {
  return async ({ event, client, context }: Args): Promise<void> => {
    const parsed = FileShareSchema.safeParse(event);
    if (!parsed.success) return;
    const message = parsed.data;
    if (!message.thread_ts || message.parent_user_id !== context.botUserId) return;
    await diagnoseSharedFiles(deps, client, {
      channel: message.channel,
      ts: message.ts,
      threadTs: message.thread_ts,
      user: message.user,
      files: message.files,
    });
  };
}
