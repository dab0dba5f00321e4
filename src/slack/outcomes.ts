import type { DiagnosisResult } from '../diagnosis/index.ts';
import type { Activity, Counter, OutcomeSubject } from '../stats/outcomes.ts';
import type { WalkthroughRecord } from '../walkthrough/index.ts';
import type { SlackDeps } from './deps.ts';
import { explainFailure } from './failures.ts';

type OutcomeDeps = Pick<SlackDeps, 'outcomes'> & Partial<Pick<SlackDeps, 'log'>>;

/** Counts one outcome; a store failure is logged, never shown: figures must not stop an incident. */
export async function countOutcome(deps: OutcomeDeps, subject: OutcomeSubject, counter: Counter) {
  try {
    await deps.outcomes?.count(subject, counter);
  } catch (error) {
    deps.log?.warn({ counter, err: explainFailure(error).message }, 'outcome not counted');
  }
}

/** A diagnosis that found something counts for its top playbook and cause. */
export function countDiagnosis(deps: OutcomeDeps, workspace: string, result: DiagnosisResult) {
  const top = result.report.diagnoses[0];
  if (!top) return Promise.resolve();
  return countOutcome(deps, { workspace, playbook: top.playbook, cause: top.cause ?? '-' }, 'diagnosed');
}

/** A walkthrough that just finished (counted under its conclusion) or was abandoned. */
export function countWalkthroughEnd(deps: OutcomeDeps, before: WalkthroughRecord, after: WalkthroughRecord) {
  if (before.status === after.status) return Promise.resolve();
  const subject = { workspace: after.workspace, playbook: after.playbook.id };
  if (after.status === 'done')
    return countOutcome(deps, { ...subject, cause: after.current ?? '-' }, 'finished');
  if (after.status === 'abandoned') return countOutcome(deps, subject, 'abandoned');
  return Promise.resolve();
}

/** Keeps a posted diagnosis or a started walkthrough for the App Home tab; failures are logged. */
export async function rememberActivity(
  deps: OutcomeDeps,
  workspace: string,
  activity: Omit<Activity, 'at'>,
): Promise<void> {
  try {
    await deps.outcomes?.remember(workspace, { ...activity, at: new Date().toISOString() });
  } catch (error) {
    deps.log?.warn({ kind: activity.kind, err: explainFailure(error).message }, 'activity not kept');
  }
}

/** A diagnosis message just posted (and found something): kept for the App Home tab. */
export function rememberDiagnosis(
  deps: OutcomeDeps,
  args: { workspace: string; channel: string; ts: string | undefined; user: string; result: DiagnosisResult },
): Promise<void> {
  const top = args.result.report.diagnoses[0];
  if (!top || !args.ts) return Promise.resolve();
  return rememberActivity(deps, args.workspace, {
    kind: 'diagnosis',
    channel: args.channel,
    ts: args.ts,
    playbook: top.playbook,
    title: top.title,
    user: args.user,
  });
}
