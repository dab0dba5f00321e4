import { z } from 'zod';
import type { AlertStatus, RoutedAlert } from './types.ts';

/**
 * What memdoctor has done for one incident, kept under its incident key: the thread it opened and how
 * far its posting got. Each effect is recorded as soon as it is done, so a retry (after a crash, a
 * Slack or connector outage) resumes at the first effect not yet recorded.
 */
export const IncidentStateSchema = z.object({
  channel: z.string(),
  status: z.enum(['firing', 'resolved']),
  /** The start of the latest firing seen (ISO-8601), when the sender gives one. */
  startsAt: z.string().optional(),
  /** Set just before the root message is posted: a retry that finds it without `rootTs` looks for the root first. */
  rootClaimedAt: z.number().optional(),
  /** The thread: the root message's ts. */
  rootTs: z.string().optional(),
  /** Set just before the diagnosis is posted: a retry that finds it without `answerTs` looks in the thread first. */
  answerClaimedAt: z.number().optional(),
  /** The diagnosis (or what was missing) is in the thread. */
  answerTs: z.string().optional(),
  /** The playbook of the diagnosis' top cause, whose walkthrough the thread starts. */
  playbook: z.string().optional(),
  /** The walkthrough's first step is in the thread (or there was none to start). */
  stepPosted: z.boolean().optional(),
  /** How many times it fired again after being resolved. */
  refires: z.number().int().nonnegative().default(0),
});
export type IncidentState = z.infer<typeof IncidentStateSchema>;

/** What one delivery changes for its incident. */
export type IncidentChange = 'opened' | 'resolved' | 'refired' | 'unchanged';

function later(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const [ta, tb] = [Date.parse(a), Date.parse(b)];
  return Number.isFinite(ta) && Number.isFinite(tb) && ta > tb;
}

/**
 * An incident's state after one of its deliveries, whatever order they came in: a firing that
 * started no later than what is known is a repeat (Alertmanager's repeat_interval, a retry, a firing
 * delivered after its own resolution) and changes nothing; a resolution closes; a firing that started
 * after a resolution fires it again in the same thread.
 */
export function applyAlert(
  state: IncidentState | undefined,
  alert: RoutedAlert,
): { state: IncidentState; change: IncidentChange } {
  const { status, startsAt } = alert.event;
  if (!state) {
    const opened: IncidentState = {
      channel: alert.channel,
      status,
      refires: 0,
      ...(startsAt ? { startsAt } : {}),
    };
    return { state: opened, change: 'opened' };
  }
  const newer = later(startsAt, state.startsAt);
  const startsNow = newer || (!state.startsAt && startsAt) ? { startsAt } : {};
  if (status === 'resolved') {
    if (state.status === 'resolved') return { state, change: 'unchanged' };
    return { state: { ...state, status: 'resolved' as AlertStatus }, change: 'resolved' };
  }
  if (state.status === 'resolved' && newer)
    return {
      state: { ...state, ...startsNow, status: 'firing', refires: state.refires + 1 },
      change: 'refired',
    };
  return { state: { ...state, ...startsNow }, change: 'unchanged' };
}
