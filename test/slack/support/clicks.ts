import type { StoredMessage } from './fake-slack.ts';
import type { Harness } from './harness.ts';
import { waitFor } from './harness.ts';
import { blockActions, slashCommand } from './payloads.ts';

interface ButtonJson {
  type: string;
  action_id: string;
  value: string;
  text: { text: string };
}

/** The buttons of a message, with the block they sit in. */
export function buttonsOf(message: StoredMessage): { blockId: string; button: ButtonJson }[] {
  return message.blocks
    .filter((b) => b.type === 'actions')
    .flatMap((b) =>
      ((b.elements ?? []) as ButtonJson[]).map((button) => ({ blockId: String(b.block_id), button })),
    );
}

/** Clicks the button whose text starts with `label`, as `user` would in Slack. */
export async function click(
  h: Harness,
  message: StoredMessage,
  label: string,
  user: string,
): Promise<Response> {
  const found = buttonsOf(message).find((b) => b.button.text.text.startsWith(label));
  if (!found) throw new Error(`no "${label}" button in ${JSON.stringify(message.blocks)}`);
  return h.sender.interaction(
    blockActions({
      user,
      channel: message.channel,
      message: {
        ts: message.ts,
        ...(message.thread_ts ? { thread_ts: message.thread_ts } : {}),
        blocks: message.blocks,
      },
      action: {
        action_id: found.button.action_id,
        block_id: found.blockId,
        value: found.button.value,
        text: found.button.text.text,
      },
      responseUrl: h.fake.responseUrl,
    }),
  );
}

/** The messages the bot posted in a thread (replies only), oldest first. */
export function threadReplies(h: Harness, channel: string, ts: string): StoredMessage[] {
  return h.fake.messages.filter((m) => m.channel === channel && m.thread_ts === ts);
}

/** `/memdoctor walk <playbook>` typed by `user` in `channel`: the walkthrough's root message once posted. */
export async function startWalk(
  h: Harness,
  playbook: string,
  who: { user: string; channel: string },
): Promise<StoredMessage> {
  await h.sender.command(
    slashCommand(`walk ${playbook}`, {
      user: who.user,
      channel: who.channel,
      responseUrl: h.fake.responseUrl,
    }),
  );
  return waitFor(() => h.fake.messages.find((m) => m.channel === who.channel && !m.thread_ts));
}
