import type { WebClient } from '@slack/web-api';
import type { WalkthroughRecord } from '../walkthrough/index.ts';
import type { SlackDeps } from './deps.ts';
import { mrkdwn } from './views/blocks.ts';
import { postProgress } from './walk-messages.ts';

/** What `/memdoctor handover` asks: who takes over, from whom, where. */
export interface HandoverRequest {
  workspace: string;
  channel: string;
  user: string;
  to?: string;
  typed: string;
  walkthrough?: string;
}

/** Slack sends a typed `@name` as text (the command does not escape); only a member id names a person. */
function noMemberText(typed: string): string {
  return `"${mrkdwn(typed || '(nobody)')}" is not a member id: Slack sends a typed @name as text. Give their member id (profile → ⋯ → Copy member ID): /memdoctor handover U0123ABCD`;
}

/** The walkthrough meant: the one named, or the caller's only active one in this channel. */
async function pick(deps: SlackDeps, request: HandoverRequest): Promise<WalkthroughRecord | string> {
  const active = await deps.walkthroughs.listActive({
    workspace: request.workspace,
    conversation: request.channel,
  });
  if (request.walkthrough) {
    const named = active.find((r) => r.id === request.walkthrough);
    return (
      named ??
      `No active walkthrough "${mrkdwn(request.walkthrough)}" in this channel; /memdoctor status lists them.`
    );
  }
  const own = active.filter((r) => r.owner === request.user);
  if (own.length === 1 && own[0]) return own[0];
  if (own.length === 0) return 'You own no active walkthrough in this channel; /memdoctor status lists them.';
  return `You own ${own.length} walkthroughs here; name one: /memdoctor handover <@${request.to}> ${own.map((r) => r.id).join(' | ')}`;
}

/**
 * Passes a walkthrough to the next on-call person: only its owner or an on-call engineer may, the
 * machine records it in the audit trail, and the thread hears who has it now. Returns what to tell
 * the caller (mrkdwn, mentions kept).
 */
export async function handOver(
  deps: SlackDeps,
  client: WebClient,
  request: HandoverRequest,
): Promise<string> {
  if (!request.to) return noMemberText(request.typed);
  const record = await pick(deps, request);
  if (typeof record === 'string') return record;
  if (!(await deps.oncall.mayAnswer(client, request.user, record.owner)))
    return `Only <@${record.owner}>, who owns this walkthrough, and the on-call engineers can hand it over.`;
  const after = await deps.walkthroughs.apply(record.id, { type: 'handover', to: request.to }, request.user);
  deps.log.info(
    { walkthrough: record.id, from: record.owner, to: request.to, by: request.user },
    'walkthrough handed over',
  );
  if (after.thread) {
    const thread = { channel: request.channel, ts: after.thread };
    await client.chat.postMessage({
      channel: thread.channel,
      thread_ts: thread.ts,
      text: `:handshake: <@${request.user}> handed this walkthrough to <@${request.to}>, who now answers its steps.`,
    });
    // The hand-over moved the version on, so the step's old buttons are stale: it is shown again.
    await postProgress(deps, client, after, thread, after.path.length);
  }
  return `Handed "${mrkdwn(record.playbook.title)}" to <@${request.to}>.`;
}
