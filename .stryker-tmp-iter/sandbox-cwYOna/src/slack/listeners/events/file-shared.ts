// @ts-nocheck
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import type { SlackDeps } from '../../deps.ts';
import { SlackFileSchema } from '../../download.ts';
import { handleSharedFiles } from '../../shared-files.ts';

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
 * A file uploaded into a thread: it answers a walkthrough's waiting paste step, or, in a thread
 * memdoctor started, it is diagnosed. Files elsewhere are left alone unless someone mentions @memdoctor.
 */
export function fileShared(deps: SlackDeps) {
  return async ({ event, client, context }: Args): Promise<void> => {
    const parsed = FileShareSchema.safeParse(event);
    if (!parsed.success || !parsed.data.thread_ts || !context.teamId) return;
    const message = parsed.data;
    await handleSharedFiles(
      deps,
      client,
      {
        workspace: context.teamId,
        channel: message.channel,
        ts: message.ts,
        threadTs: message.thread_ts ?? message.ts,
        user: message.user,
        files: message.files,
      },
      message.parent_user_id === context.botUserId,
    );
  };
}
