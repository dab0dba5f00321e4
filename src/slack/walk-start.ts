import type { WebClient } from '@slack/web-api';
import type { Playbook } from '../engine/playbook/schema.ts';
import type { DiagnosisFacts, WalkthroughRecord } from '../walkthrough/index.ts';
import type { SlackDeps } from './deps.ts';
import { explainFailure } from './failures.ts';
import { countOutcome, rememberActivity } from './outcomes.ts';
import { walkRootView } from './views/step.ts';
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
  deps.metrics?.walkthroughStarts.inc({ playbook: playbook.id });
  deps.log.info(
    { walkthrough: record.id, playbook: playbook.id, channel: thread.channel, threadTs: thread.ts, owner },
    'walkthrough started in Slack',
  );
  await countOutcome(deps, { workspace, playbook: playbook.id }, 'started');
  await rememberActivity(deps, workspace, {
    kind: 'walkthrough',
    channel: thread.channel,
    ts: thread.ts,
    playbook: playbook.id,
    title: playbook.title,
    user: owner,
    walkthrough: record.id,
  });
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
  const record = await deps.walkthroughs.start({ playbook, where, owner, listed: false });
  let root: string | undefined;
  try {
    const posted = await client.chat.postMessage({ channel, ...walkRootView(playbook, owner) });
    if (!posted.ts) throw new Error('Slack did not return the message it posted; try again.');
    root = posted.ts;
    const linked = await deps.walkthroughs.applyTo(record, { type: 'thread', thread: root }, owner);
    deps.log.info(
      { walkthrough: record.id, playbook: playbook.id, channel, threadTs: root, owner },
      'walkthrough started in Slack',
    );
    await countOutcome(deps, { workspace, playbook: playbook.id }, 'started');
    await rememberActivity(deps, workspace, {
      kind: 'walkthrough',
      channel,
      ts: root,
      playbook: playbook.id,
      title: playbook.title,
      user: owner,
      walkthrough: record.id,
    });
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
  const stored = await deps.walkthroughs.get(record.id).catch(() => record);
  if (stored.status === 'active' && stored.path.length === 0)
    await deps.walkthroughs
      .applyTo(stored, { type: 'abort', reason: 'its first message could not be posted' }, record.owner)
      .catch((error: unknown) =>
        deps.log.warn({ ...log, err: explainFailure(error).detail }, 'walkthrough not undone'),
      );
  if (root)
    await client.chat
      .delete({ channel, ts: root })
      .catch((error: unknown) =>
        deps.log.warn({ ...log, err: explainFailure(error).message }, 'root message not deleted'),
      );
}
