// @ts-nocheck
import type { WebClient } from '@slack/web-api';
import type { DiagnosisFacts } from '../walkthrough/index.ts';
import type { SlackDeps } from './deps.ts';
import { postProgress, type Thread } from './walk-messages.ts';

/** Why a playbook cannot be walked through, or undefined when it can. */
export function playbookRefusal(deps: SlackDeps, playbook: string): string | undefined {
  const found = deps.playbooks.find((p) => p.id === playbook);
  if (!found) return `There is no playbook "${playbook}". Try /memdoctor list.`;
  if (found.procedure === undefined) return `The playbook "${playbook}" has no step-by-step walkthrough yet.`;
  return undefined;
}

/** Why a walkthrough cannot start in this thread, or undefined when it can. */
export async function cannotStart(deps: SlackDeps, workspace: string, thread: Thread, playbook: string) {
  const refusal = playbookRefusal(deps, playbook);
  if (refusal) return refusal;
  const running = await deps.walkthroughs.findByThread(
    { workspace, conversation: thread.channel },
    thread.ts,
  );
  if (running?.status === 'active')
    return 'A walkthrough is already running in this thread; answer its current step, or finish it first.';
  return undefined;
}

/** Starts a walkthrough in a thread (with what the diagnosis found, when it came from one) and posts its first step. */
export async function startInThread(
  deps: SlackDeps,
  client: WebClient,
  args: { workspace: string; thread: Thread; owner: string; playbook: string; diagnosis?: DiagnosisFacts },
): Promise<void> {
  const { workspace, thread, owner } = args;
  const playbook = deps.playbooks.find((p) => p.id === args.playbook);
  if (!playbook) return;
  const record = await deps.walkthroughs.start({
    playbook,
    where: { workspace, conversation: thread.channel },
    owner,
    thread: thread.ts,
    ...(args.diagnosis ? { diagnosis: args.diagnosis } : {}),
  });
  deps.log.info(
    { walkthrough: record.id, playbook: playbook.id, channel: thread.channel, threadTs: thread.ts, owner },
    'walkthrough started in Slack',
  );
  await postProgress(deps, client, record, thread, 0);
}
