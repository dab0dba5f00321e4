import type { Logger } from 'pino';
import type { DiagnosisResult } from '../diagnosis/index.ts';
import { asMemdoctorError } from '../errors.ts';
import type { Activity, Counter, FeedbackAnswer, OutcomeStore, OutcomeSubject } from '../stats/outcomes.ts';
import type { WalkthroughRecord } from '../walkthrough/index.ts';

/** Where outcomes go: unset when none are kept (the console, a test). */
export interface OutcomeContext {
  outcomes?: OutcomeStore;
  log?: Logger;
}

/** Counts one outcome; a store failure is logged, never shown: figures must not stop an incident. */
export async function countOutcome(context: OutcomeContext, subject: OutcomeSubject, counter: Counter) {
  try {
    await context.outcomes?.count(subject, counter);
  } catch (error) {
    context.log?.warn({ counter, err: asMemdoctorError(error).message }, 'outcome not counted');
  }
}

/** A diagnosis that found something counts for its top playbook and cause. */
export function countDiagnosis(context: OutcomeContext, workspace: string, result: DiagnosisResult) {
  const top = result.report.diagnoses[0];
  if (!top) return Promise.resolve();
  return countOutcome(context, { workspace, playbook: top.playbook, cause: top.cause ?? '-' }, 'diagnosed');
}

/** A walkthrough that just finished (counted under its conclusion) or was abandoned. */
export function countWalkthroughEnd(
  context: OutcomeContext,
  before: WalkthroughRecord,
  after: WalkthroughRecord,
) {
  if (before.status === after.status) return Promise.resolve();
  const subject = { workspace: after.workspace, playbook: after.playbook.id };
  if (after.status === 'done')
    return countOutcome(context, { ...subject, cause: after.current ?? '-' }, 'finished');
  if (after.status === 'abandoned') return countOutcome(context, subject, 'abandoned');
  return Promise.resolve();
}

/** Keeps a posted diagnosis or a started walkthrough for the App Home tab; failures are logged. */
export async function rememberActivity(
  context: OutcomeContext,
  workspace: string,
  activity: Omit<Activity, 'at'>,
): Promise<void> {
  try {
    await context.outcomes?.remember(workspace, { ...activity, at: new Date().toISOString() });
  } catch (error) {
    context.log?.warn({ kind: activity.kind, err: asMemdoctorError(error).message }, 'activity not kept');
  }
}

/** A diagnosis message just posted (and found something): kept for the App Home tab. */
export function rememberDiagnosis(
  context: OutcomeContext,
  args: { workspace: string; channel: string; ts: string | undefined; user: string; result: DiagnosisResult },
): Promise<void> {
  const top = args.result.report.diagnoses[0];
  if (!top || !args.ts) return Promise.resolve();
  return rememberActivity(context, args.workspace, {
    kind: 'diagnosis',
    channel: args.channel,
    ts: args.ts,
    playbook: top.playbook,
    title: top.title,
    user: args.user,
  });
}

/**
 * "Did this fix it?" answered: kept once per walkthrough (a new answer replaces it). Resolves to
 * false when no outcomes are kept; a store failure is thrown, since the person must hear it was lost.
 */
export async function recordFeedback(context: OutcomeContext, answer: FeedbackAnswer): Promise<boolean> {
  if (!context.outcomes) return false;
  await context.outcomes.feedback(answer);
  return true;
}

/** A note to a walkthrough's "Did this fix it?" answer; false when no outcomes are kept. */
export async function recordFeedbackNote(
  context: OutcomeContext,
  note: { workspace: string; walkthrough: string; text: string },
): Promise<boolean> {
  if (!context.outcomes) return false;
  await context.outcomes.note(note.workspace, note.walkthrough, note.text);
  return true;
}
