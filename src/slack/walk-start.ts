import type { WebClient } from '@slack/web-api';
import {
  abandonUnposted,
  linkThread,
  type StartRefusal,
  startRefusal,
  startWalkthrough,
  walkablePlaybook,
} from '../usecases/start-walkthrough.ts';
import type { Playbook } from '../usecases/types.ts';
import type { DiagnosisFacts, WalkthroughRecord } from '../walkthrough/index.ts';
import type { SlackDeps } from './deps.ts';
import { explainFailure } from './failures.ts';
import { walkRootView } from './views/step.ts';
import { postProgress, type Thread } from './walk-messages.ts';

/** A refusal to start, as Slack says it. */
function refusalText(refusal: StartRefusal, playbook: string): string {
  if (refusal === 'no-playbook') return `There is no playbook "${playbook}". Try /memdoctor list.`;
  if (refusal === 'no-procedure') return `The playbook "${playbook}" has no step-by-step walkthrough yet.`;
  return 'A walkthrough is already running in this thread; answer its current step, or finish it first.';
}

/** The playbook to walk through, or why it cannot be (in Slack's words). */
export function walkable(deps: SlackDeps, playbook: string): Playbook | string {
  const found = walkablePlaybook(deps, playbook);
  return typeof found === 'string' ? refusalText(found, playbook) : found;
}

/** Why a walkthrough cannot start in this thread, or undefined when it can. */
export async function cannotStart(deps: SlackDeps, workspace: string, thread: Thread, playbook: string) {
  const refusal = await startRefusal(deps, { workspace, conversation: thread.channel }, thread.ts, playbook);
  return refusal ? refusalText(refusal, playbook) : undefined;
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
  const record = await startWalkthrough(deps, {
    playbook,
    where: { workspace, conversation: thread.channel },
    owner,
    thread: thread.ts,
    ...(args.diagnosis ? { diagnosis: args.diagnosis } : {}),
  });
  deps.metrics?.walkthroughStarts.inc({ playbook: playbook.id });
  deps.log.info(
    { walkthrough: record.id, playbook: playbook.id, channel: thread.channel, threadTs: thread.ts, owner },
    'walkthrough started in Slack',
  );
  await postProgress(deps, client, record, thread, 0);
}

/** Where `/memdoctor walk` starts a walkthrough: its channel, by whom. */
export interface WalkCommand {
  workspace: string;
  channel: string;
  owner: string;
  playbook: Playbook;
}

/**
 * `/memdoctor walk`: the walkthrough is stored (unlisted) before anything is posted. Then its root
 * message is posted and the walkthrough linked to that thread, which lists it. If a step after the
 * first write fails, what was done is undone (the walkthrough abandoned, the root deleted); should
 * Redis be down for that too, the walkthrough stays unlisted and expires. No orphan either way.
 */
export async function startWithRoot(deps: SlackDeps, client: WebClient, walk: WalkCommand): Promise<void> {
  const { workspace, channel, owner, playbook } = walk;
  // Unlisted until the thread is linked: if Redis fails between the two writes, nobody sees it.
  const where = { workspace, conversation: channel };
  const record = await startWalkthrough(deps, { playbook, where, owner, listed: false });
  let root: string | undefined;
  try {
    const posted = await client.chat.postMessage({ channel, ...walkRootView(playbook, owner) });
    if (!posted.ts) throw new Error('Slack did not return the message it posted; try again.');
    root = posted.ts;
    const linked = await linkThread(deps, record, root);
    deps.log.info(
      { walkthrough: record.id, playbook: playbook.id, channel, threadTs: root, owner },
      'walkthrough started in Slack',
    );
    await postProgress(deps, client, linked, { channel, ts: root }, 0);
  } catch (error) {
    await undoStart(deps, client, record, channel, root);
    throw error;
  }
}

/** Best effort: abandon the stored walkthrough and delete its root message; failures are logged. */
async function undoStart(
  deps: SlackDeps,
  client: WebClient,
  record: WalkthroughRecord,
  channel: string,
  root: string | undefined,
): Promise<void> {
  const log = { walkthrough: record.id, channel };
  await abandonUnposted(deps, record).catch((error: unknown) =>
    deps.log.warn({ ...log, err: explainFailure(error).detail }, 'walkthrough not undone'),
  );
  if (root)
    await client.chat
      .delete({ channel, ts: root })
      .catch((error: unknown) =>
        deps.log.warn({ ...log, err: explainFailure(error).message }, 'root message not deleted'),
      );
}
