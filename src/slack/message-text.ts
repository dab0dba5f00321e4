import { z } from 'zod';
import { SlackFileSchema } from './download.ts';

/** The parts of a Slack message that may hold an error: its text, attachments (alert bots) and files. */
export const SlackMessageSchema = z.looseObject({
  ts: z.string(),
  thread_ts: z.string().optional(),
  text: z.string().optional(),
  attachments: z
    .array(
      z.looseObject({
        pretext: z.string().optional(),
        title: z.string().optional(),
        text: z.string().optional(),
        fields: z
          .array(z.looseObject({ title: z.string().optional(), value: z.string().optional() }))
          .optional(),
      }),
    )
    .optional(),
  files: z.array(SlackFileSchema).optional(),
});
export type SlackMessage = z.infer<typeof SlackMessageSchema>;

/** Slack escapes these three in message text; the engine reads the log as it was written. */
function unescapeSlack(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/**
 * The text to diagnose from a message: its text, then each attachment's pretext, title, text and
 * fields (alert bots such as monitoring integrations put the error there). Empty when there is none.
 */
export function messageText(message: SlackMessage): string {
  const parts = [message.text ?? ''];
  for (const a of message.attachments ?? [])
    parts.push(a.pretext ?? '', a.title ?? '', a.text ?? '', ...(a.fields ?? []).map((f) => f.value ?? ''));
  return unescapeSlack(parts.filter((p) => p.trim() !== '').join('\n')).trim();
}
