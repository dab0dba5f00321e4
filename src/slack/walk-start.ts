import type { WebClient } from '@slack/web-api';
import type { SlackDeps } from './deps.ts';
import { postProgress, type Thread } from './walk-messages.ts';
import type { WalkSeed } from './walk-seed.ts';

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
  const active = await deps.walkthroughs.listActive({ workspace, conversation: thread.channel });
  if (active.some((r) => r.thread === thread.ts))
    return 'A walkthrough is already running in this thread; answer its current step, or finish it first.';
  return undefined;
}

/** Starts a walkthrough in a thread and posts its first step. */
export async function startInThread(
  deps: SlackDeps,
  client: WebClient,
  args: { workspace: string; thread: Thread; owner: string; seed: WalkSeed },
): Promise<void> {
  const { workspace, thread, owner, seed } = args;
  const record = await deps.walkthroughs.start({
    where: { workspace, conversation: thread.channel },
    thread: thread.ts,
    playbook: seed.p,
    owner,
    facts: seed.f,
    values: seed.v,
  });
  deps.log.info(
    { walkthrough: record.id, playbook: seed.p, channel: thread.channel, threadTs: thread.ts },
    'walkthrough started',
  );
  await postProgress(deps, client, record, thread, 0);
}
