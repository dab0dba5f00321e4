import type { Playbook } from '../engine/playbook/schema.ts';
import type {
  Conversation,
  DiagnosisFacts,
  WalkthroughRecord,
  WalkthroughService,
} from '../walkthrough/index.ts';
import { countOutcome, type OutcomeContext, rememberActivity } from './record-outcome.ts';

/** What starting a walkthrough needs: the playbooks, the walkthroughs, where outcomes are counted. */
export interface StartContext extends OutcomeContext {
  playbooks: readonly Playbook[];
  walkthroughs: WalkthroughService;
}

/** Why a walkthrough cannot start; each surface words it for its own readers. */
export type StartRefusal = 'no-playbook' | 'no-procedure' | 'running';

/** The playbook to walk through, or why there is none. */
export function walkablePlaybook(
  context: Pick<StartContext, 'playbooks'>,
  id: string,
): Playbook | Exclude<StartRefusal, 'running'> {
  const found = context.playbooks.find((p) => p.id === id);
  if (!found) return 'no-playbook';
  if (found.procedure === undefined) return 'no-procedure';
  return found;
}

/** Why a walkthrough of `playbook` cannot start in this chat thread, or undefined when it can. */
export async function startRefusal(
  context: StartContext,
  where: Conversation,
  thread: string,
  playbook: string,
): Promise<StartRefusal | undefined> {
  const walkable = walkablePlaybook(context, playbook);
  if (typeof walkable === 'string') return walkable;
  const running = await context.walkthroughs.findByThread(where, thread);
  return running?.status === 'active' ? 'running' : undefined;
}

/** One walkthrough to start. */
export interface StartRequest {
  playbook: Playbook;
  where: Conversation;
  owner: string;
  /** The chat thread it runs in; a start in a thread is counted (see linkThread for one opened later). */
  thread?: string;
  /** What the diagnosis found: steps it answers are skipped. */
  diagnosis?: DiagnosisFacts;
  /** False: unlisted until its thread is linked (see linkThread). Default true. */
  listed?: boolean;
}

/** Counts a start and keeps it for the App Home tab, once the walkthrough has its thread. */
function started(context: StartContext, record: WalkthroughRecord, thread: string): Promise<void> {
  const { workspace, conversation: channel, playbook, owner: user, id: walkthrough } = record;
  return countOutcome(context, { workspace, playbook: playbook.id }, 'started').then(() =>
    rememberActivity(context, workspace, {
      kind: 'walkthrough',
      channel,
      ts: thread,
      playbook: playbook.id,
      title: playbook.title,
      user,
      walkthrough,
    }),
  );
}

/**
 * Starts a walkthrough at the first step a person must answer. One started in a chat thread is
 * counted at once; one whose thread is opened after it (listed: false) when {@link linkThread} links it.
 */
export async function startWalkthrough(
  context: StartContext,
  request: StartRequest,
): Promise<WalkthroughRecord> {
  const record = await context.walkthroughs.start(request);
  if (request.thread) await started(context, record, request.thread);
  return record;
}

/** Links a walkthrough started without a thread to the thread its first message opened, and counts it. */
export async function linkThread(
  context: StartContext,
  record: WalkthroughRecord,
  thread: string,
): Promise<WalkthroughRecord> {
  const linked = await context.walkthroughs.applyTo(record, { type: 'thread', thread }, record.owner);
  await started(context, linked, thread);
  return linked;
}

/**
 * Undoes a start whose first message could not be posted: the walkthrough is abandoned if nobody
 * answered it yet. Throws what the store throws; the caller logs it.
 */
export async function abandonUnposted(context: StartContext, record: WalkthroughRecord): Promise<void> {
  const stored = await context.walkthroughs.get(record.id).catch(() => record);
  if (stored.status !== 'active' || stored.path.length > 0) return;
  const reason = 'its first message could not be posted';
  await context.walkthroughs.applyTo(stored, { type: 'abort', reason }, record.owner);
}
