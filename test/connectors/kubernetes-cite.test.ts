import { describe, expect, it } from 'vitest';
import {
  eventCitations,
  logCitations,
  podCitations,
  podToCheck,
} from '../../src/connectors/kubernetes-cite.ts';
import { fixture } from './fakes/rest-fake.ts';

// Variations of the real pod and event list (SOURCES.md), edited here to reach the other states the
// API writes (core/v1 ContainerState: running, terminated; a list with a continue token).
const pod = () => JSON.parse(fixture('kubernetes/pod-aiops-memhog-oomkilled.json'));
const events = () => JSON.parse(fixture('kubernetes/assembled-events-aiops-memhog.json'));

describe('Kubernetes citations', () => {
  it('cites a container terminated now, with how it ended', () => {
    const p = pod();
    p.status.containerStatuses[0].state = {
      terminated: { reason: 'OOMKilled', exitCode: 137, finishedAt: null },
    };
    expect(podCitations(p)).toContain('containerStatuses[memhog].state = terminated (OOMKilled)');
    expect(podCitations(p)).toContain('containerStatuses[memhog].state.terminated.exitCode = 137');
  });

  it('cites a running container, and one with no status yet (a pending pod)', () => {
    const p = pod();
    p.status.containerStatuses[0].state = { running: { startedAt: '2026-04-22T02:55:00Z' } };
    expect(podCitations(p)).toContain('containerStatuses[memhog].state = running');
    delete p.status;
    expect(podCitations(p)).toEqual([
      'spec.containers[memhog].resources.limits.memory = 40Mi',
      'spec.containers[memhog].resources.requests.memory = 20Mi',
    ]);
    expect(podToCheck(p)).toBeUndefined();
  });

  it('prefers a container that exited 137 when none says OOMKilled', () => {
    const p = pod();
    const sidecar = { ...p.status.containerStatuses[0], name: 'sidecar' };
    sidecar.lastState = { terminated: { reason: 'Completed', exitCode: 0 } };
    p.status.containerStatuses[0].lastState.terminated.reason = 'Error';
    p.status.containerStatuses = [sidecar, p.status.containerStatuses[0]];
    expect(podToCheck(p)).toEqual({ container: 'memhog', previous: true });
  });

  it('cites nothing from an answer that is not a pod or an event list', () => {
    expect(podCitations({ kind: 'Status' })).toEqual([]);
    expect(eventCitations('not json', 500)).toEqual([]);
  });

  it('says when the event list has a second page it did not read', () => {
    const list = events();
    list.metadata.continue = 'next-page-token';
    list.items.push({
      type: 'Normal',
      reason: 'Pulled',
      message: 'Container image already present on machine',
    });
    expect(eventCitations(list, 500)).toEqual([
      expect.stringMatching(/^event Warning BackOff \(x4646\) from kubelet: Back-off restarting/),
      'event Normal Pulled: Container image already present on machine',
      'events: more than 500; only the first 500 were read',
    ]);
  });

  it('cuts a long message and counts an empty log as no lines', () => {
    const list = events();
    list.items[0].message = 'x'.repeat(300);
    expect(eventCitations(list, 500)[0]).toHaveLength(200 + 1);
    expect(logCitations('', undefined, 200)).toEqual([
      'log[the only container, previous]: 0 lines (the last 200 asked)',
    ]);
  });
});
