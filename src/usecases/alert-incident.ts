import type { CaseStore } from '../cases/index.ts';
import type { Playbook } from '../engine/playbook/schema.ts';
import { messageOf } from '../errors.ts';
import type { IncidentQueue } from '../incidents/queue.ts';
import { applyAlert, type IncidentChange, type IncidentState } from '../incidents/state.ts';
import type { RoutedAlert } from '../incidents/types.ts';
import { addToCase, type CaseLimits } from './add-to-case.ts';
import type { AlertAnswer } from './alert-diagnosis.ts';

export type { IncidentChange, IncidentState } from '../incidents/state.ts';

/**
 * Where an incident's thread is posted: the Slack surface implements it. Each method does one thing
 * the use case records as done before the next, so a retry does only what is left.
 */
export interface IncidentThread {
  /** The root a crash left posted but unrecorded (posted since `sinceMs`), if there is one. */
  findRoot(alert: RoutedAlert, sinceMs: number): Promise<string | undefined>;
  /** The diagnosis a crash left posted in the thread but unrecorded, if there is one. */
  findAnswer(alert: RoutedAlert, rootTs: string): Promise<string | undefined>;
  /** Posts the root message (title, source, status); its ts. */
  postRoot(alert: RoutedAlert, state: IncidentState): Promise<string>;
  /** Edits the root message to the incident's status. */
  updateRoot(alert: RoutedAlert, state: IncidentState & { rootTs: string }): Promise<void>;
  /** Says in the thread that the incident fired again: once for each time, even when retried after a crash. */
  postRefired(alert: RoutedAlert, state: IncidentState & { rootTs: string }): Promise<void>;
  /** Posts the diagnosis (or what is missing) in the thread; its ts. */
  postAnswer(alert: RoutedAlert, rootTs: string, answer: AlertAnswer): Promise<string>;
  /** Starts the walkthrough of `playbook` in the thread and posts its first step. */
  startWalkthrough(alert: RoutedAlert, rootTs: string, playbook: string): Promise<void>;
}

/** What processing an alert works with. */
export interface IncidentContext {
  incidents: Pick<IncidentQueue, 'incident' | 'saveIncident'>;
  /** Fetches and diagnoses the alert's checks (diagnoseAlert with the app's connectors and gate). */
  diagnose(alert: RoutedAlert, attempt: number): Promise<AlertAnswer>;
  /** The cases of threads: the fetched answers become the thread's case, so files posted later refine it. */
  cases?: { store: CaseStore; limits: CaseLimits; playbooks: readonly Playbook[] };
  workspace: string;
  now?: () => number;
  log?: { warn(object: object, message: string): void };
}

/** The top diagnosis' playbook over every check fetched, when one was found. */
function leadPlaybook(answer: AlertAnswer): string | undefined {
  const ranked = answer.found
    .flatMap((f) => f.result.report.diagnoses)
    .sort((a, b) => b.confidence - a.confidence || a.playbook.localeCompare(b.playbook));
  return ranked[0]?.playbook;
}

/**
 * One delivery of an alert, done for its incident (the caller holds the incident's claim): the thread
 * opened once, its root edited when the incident resolves, a note when it fires again, the diagnosis
 * from fetched evidence and the walkthrough's first step posted once. Every effect is recorded in the
 * incident's state right after it is done; a retry, here or on another replica, resumes after it.
 */
export async function processAlert(
  context: IncidentContext,
  thread: IncidentThread,
  routed: RoutedAlert,
  attempt: number,
): Promise<IncidentChange> {
  const key = routed.event.incidentKey;
  const save = async (next: IncidentState) => {
    await context.incidents.saveIncident(key, next);
    return next;
  };
  const applied = applyAlert(await context.incidents.incident(key), routed);
  let state = applied.state;
  // A thread stays where it opened, even if the routing file moved the route since.
  const alert = { ...routed, channel: state.channel };
  if (!state.rootTs) {
    const found = state.rootClaimedAt ? await thread.findRoot(alert, state.rootClaimedAt) : undefined;
    if (!found) state = await save({ ...state, rootClaimedAt: (context.now ?? Date.now)() });
    state = await save({ ...state, rootTs: found ?? (await thread.postRoot(alert, state)) });
  } else if (applied.change === 'resolved' || applied.change === 'refired') {
    const open = { ...state, rootTs: state.rootTs };
    if (applied.change === 'refired') await thread.postRefired(alert, open);
    await thread.updateRoot(alert, open);
    state = await save(state);
  }
  const rootTs = state.rootTs as string;
  if (!state.answerTs) state = await postAnswer(context, thread, { alert, rootTs, state, attempt }, save);
  if (!state.stepPosted && state.playbook) {
    await thread.startWalkthrough(alert, rootTs, state.playbook);
    state = await save({ ...state, stepPosted: true });
  }
  return applied.change;
}

/**
 * The diagnosis posted in the thread and recorded, and kept as the thread's case. Claimed before it
 * is posted, as the root is, so only a retry after a crash searches the thread for it.
 */
async function postAnswer(
  context: IncidentContext,
  thread: IncidentThread,
  at: { alert: RoutedAlert; rootTs: string; state: IncidentState; attempt: number },
  save: (next: IncidentState) => Promise<IncidentState>,
): Promise<IncidentState> {
  const { alert, rootTs, attempt } = at;
  let state = at.state;
  const answer = await context.diagnose(alert, attempt);
  const found = state.answerClaimedAt ? await thread.findAnswer(alert, rootTs) : undefined;
  if (!found) state = await save({ ...state, answerClaimedAt: (context.now ?? Date.now)() });
  const answerTs = found ?? (await thread.postAnswer(alert, rootTs, answer));
  const playbook = leadPlaybook(answer);
  state = await save({ ...state, answerTs, ...(playbook ? { playbook } : {}), stepPosted: !playbook });
  await keepAsCase(context, alert, { rootTs, answerTs }, answer);
  return state;
}

/**
 * The fetched answers become the thread's case, its answer the diagnosis message: a file posted in
 * the thread later is read with them and that message edited (docs/cases.md). A case that cannot be
 * kept leaves the thread as it is (logged): the diagnosis is posted already.
 */
async function keepAsCase(
  context: IncidentContext,
  alert: RoutedAlert,
  posted: { rootTs: string; answerTs: string },
  answer: AlertAnswer,
): Promise<void> {
  const cases = context.cases;
  if (!cases) return;
  const where = { workspace: context.workspace, conversation: alert.channel, thread: posted.rootTs };
  const caseContext = { cases: cases.store, limits: cases.limits, playbooks: cases.playbooks };
  try {
    if (await cases.store.get(where)) return;
    for (const found of answer.found)
      for (const input of found.result.inputs ?? [])
        if (input.text.trim() !== '')
          await addToCase(
            { where, input: { source: input.source, text: input.text }, answerTs: posted.answerTs },
            caseContext,
          );
  } catch (error) {
    context.log?.warn({ incident: alert.event.incidentKey, err: messageOf(error) }, 'alert case not kept');
  }
}
