import type { StepView, WalkthroughRecord } from '../walkthrough/index.ts';
import type { SlackDeps } from './deps.ts';
import type { Thread } from './walk-messages.ts';

/** The active walkthrough of a thread whose current step takes one of `inputs` (a value, output), if any. */
export async function waitingIn(
  deps: SlackDeps,
  workspace: string,
  thread: Thread,
  inputs: readonly NonNullable<StepView['input']>[],
): Promise<{ record: WalkthroughRecord; view: StepView } | undefined> {
  const record = await deps.walkthroughs.findByThread({ workspace, conversation: thread.channel }, thread.ts);
  if (record?.status !== 'active' || record.current === null) return undefined;
  const view = deps.walkthroughs.view(record);
  return view?.input && inputs.includes(view.input) ? { record, view } : undefined;
}

/** Slack escapes these three in message text; parsers need the characters back. */
export function unescapeSlack(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/**
 * Reads a thread reply as command output: fenced (```...```) or several lines. A one-line remark
 * ("looking now") is conversation, not a paste, and is left alone.
 */
export function pastedOutput(text: string): string | undefined {
  const fenced = /```([\s\S]*?)```/.exec(text);
  if (fenced?.[1]?.trim()) return unescapeSlack(fenced[1].trim());
  const plain = text.trim();
  return plain.includes('\n') ? unescapeSlack(plain) : undefined;
}
