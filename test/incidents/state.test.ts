import { describe, expect, it } from 'vitest';
import { applyAlert, type IncidentState } from '../../src/incidents/state.ts';
import { routedAlert } from './alerts.ts';

const T0 = '2026-12-07T02:58:01.000Z';
const T1 = '2026-12-07T05:00:00.000Z';
const firing = (startsAt = T0) => routedAlert({ status: 'firing', startsAt });
const resolved = (startsAt = T0) => routedAlert({ status: 'resolved', startsAt });

/** The states and changes after each alert in turn, from no incident. */
function run(...alerts: ReturnType<typeof routedAlert>[]) {
  let state: IncidentState | undefined;
  return alerts.map((alert) => {
    const next = applyAlert(state, alert);
    state = next.state;
    return { change: next.change, status: next.state.status, refires: next.state.refires };
  });
}

describe('applyAlert', () => {
  it('opens on the first delivery, firing or resolved', () => {
    expect(run(firing())[0]).toEqual({ change: 'opened', status: 'firing', refires: 0 });
    expect(run(resolved())[0]).toEqual({ change: 'opened', status: 'resolved', refires: 0 });
  });

  it('a repeat of a firing changes nothing; its resolution resolves', () => {
    expect(run(firing(), firing(), resolved()).map((s) => s.change)).toEqual([
      'opened',
      'unchanged',
      'resolved',
    ]);
  });

  it('a firing delivered after its own resolution (same start) stays resolved', () => {
    expect(run(resolved(), firing()).at(-1)).toEqual({ change: 'unchanged', status: 'resolved', refires: 0 });
  });

  it('a firing that starts after the resolution fires again, once', () => {
    expect(run(firing(), resolved(), firing(T1), firing(T1))).toEqual([
      { change: 'opened', status: 'firing', refires: 0 },
      { change: 'resolved', status: 'resolved', refires: 0 },
      { change: 'refired', status: 'firing', refires: 1 },
      { change: 'unchanged', status: 'firing', refires: 1 },
    ]);
  });

  it('without start times a firing after a resolution is not taken for a new one', () => {
    const bare = (status: 'firing' | 'resolved') => routedAlert({ status, startsAt: undefined });
    expect(run(bare('firing'), bare('resolved'), bare('firing')).at(-1)?.change).toBe('unchanged');
  });

  it('keeps what was recorded of the thread', () => {
    const state: IncidentState = {
      channel: 'C1',
      status: 'firing',
      startsAt: T0,
      rootTs: '1.2',
      answerTs: '1.3',
      refires: 0,
    };
    expect(applyAlert(state, resolved()).state).toMatchObject({ rootTs: '1.2', answerTs: '1.3' });
  });
});
