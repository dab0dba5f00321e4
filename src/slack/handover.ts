import type { WebClient } from '@slack/web-api';
import { type HandOverResult, handOver as passOn } from '../usecases/hand-over.ts';
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

/** A hand-over that did not happen, as the caller is told. */
function refusalText(result: Exclude<HandOverResult, { kind: 'handed' }>, to: string): string {
  switch (result.kind) {
    case 'not-found':
      return `No active walkthrough "${mrkdwn(result.walkthrough)}" in this channel; /memdoctor status lists them.`;
    case 'none-owned':
      return 'You own no active walkthrough in this channel; /memdoctor status lists them.';
    case 'several-owned':
      return `You own ${result.ids.length} walkthroughs here; name one: /memdoctor handover <@${to}> ${result.ids.join(' | ')}`;
    case 'not-allowed':
      return `Only <@${result.owner}>, who owns this walkthrough, and the on-call engineers can hand it over.`;
  }
}

/**
 * Passes a walkthrough to the next on-call person through the hand-over use case; the thread hears
 * who has it now. Returns what to tell the caller (mrkdwn, mentions kept).
 */
export async function handOver(
  deps: SlackDeps,
  client: WebClient,
  request: HandoverRequest,
): Promise<string> {
  const { to, user } = request;
  if (!to) return noMemberText(request.typed);
  const result = await passOn(deps, {
    where: { workspace: request.workspace, conversation: request.channel },
    actor: user,
    to,
    ...(request.walkthrough ? { walkthrough: request.walkthrough } : {}),
    mayHandOver: (owner) => deps.oncall.mayAnswer(client, user, owner),
  });
  if (result.kind !== 'handed') return refusalText(result, to);
  const { before, after } = result;
  deps.log.info({ walkthrough: before.id, from: before.owner, to, by: user }, 'walkthrough handed over');
  if (after.thread) {
    const thread = { channel: request.channel, ts: after.thread };
    await client.chat.postMessage({
      channel: thread.channel,
      thread_ts: thread.ts,
      text: `:handshake: <@${user}> handed this walkthrough to <@${to}>, who now answers its steps.`,
    });
    // The hand-over moved the version on, so the step's old buttons are stale: it is shown again.
    await postProgress(deps, client, after, thread, after.path.length);
  }
  return `Handed "${mrkdwn(before.playbook.title)}" to <@${to}>.`;
}
