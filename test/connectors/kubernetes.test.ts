import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { kubernetesConnector } from '../../src/connectors/kubernetes.ts';
import { podToCheck } from '../../src/connectors/kubernetes-cite.ts';
import type { KubernetesTarget } from '../../src/connectors/kubernetes-config.ts';
import { diagnose } from '../../src/diagnosis/diagnose.ts';
import { parseText } from '../../src/engine/parsers/parse-text.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../src/playbooks/load.ts';
import { kubeFake, kubeTargetFor, MEMHOG } from './fakes/kube-fake.ts';
import { fixture, type RestFake } from './fakes/rest-fake.ts';
import { FIXED_NOW } from './support.ts';

const pasted = (path: string) => fixture(`../../engine/parsers/fixtures/${path}`);
const POD_ID = `${MEMHOG.namespace}/${MEMHOG.name}`;

describe('Kubernetes connector: the real client library against a fake API server answering real responses', () => {
  let fake: RestFake;
  let target: KubernetesTarget;
  beforeEach(async () => {
    fake = kubeFake();
    target = kubeTargetFor(await fake.start());
  });
  afterEach(async () => {
    expect(fake.violations).toEqual([]);
    await fake.stop();
  });
  const fetch = (resource: string, ids: Record<string, string>) =>
    kubernetesConnector.fetch({ resource, ids }, { target, now: FIXED_NOW });

  it('fetches the pod and judges it as the pasted `kubectl get pod -o yaml` is judged', async () => {
    const got = await fetch('pod', { pod: POD_ID });
    expect(got.from).toEqual({
      connector: 'kubernetes',
      path: `/api/v1/namespaces/${MEMHOG.namespace}/pods/${MEMHOG.name}`,
      fetchedAt: '2026-12-03T11:00:00.000Z',
    });
    expect(got.parser).toBe('k8s-pod');
    const fromPaste = parseText('k8s-pod', pasted('k8s-pod/aiops-memhog-get-pod-yaml.txt'));
    const fromFetch = parseText('k8s-pod', got.paste);
    expect(fromFetch.values).toEqual(fromPaste.values);
    expect(fromFetch.verdict).toBe('OOMKilled at the container memory limit');
    expect(fromFetch.summary).toBe(fromPaste.summary);
    // The token from the kubeconfig reached the API server; nothing but GET was sent.
    expect(fake.seen.map((s) => [s.method, s.headers.authorization])).toEqual([
      ['GET', 'Bearer memdoctor-fake-reader-token'],
    ]);
  });

  it('cites the fetched fields: last termination, restarts, state, limits and requests', async () => {
    const got = await fetch('pod', { pod: POD_ID });
    expect(got.citations).toEqual([
      'spec.containers[memhog].resources.limits.memory = 40Mi',
      'spec.containers[memhog].resources.requests.memory = 20Mi',
      'containerStatuses[memhog].restartCount = 203',
      'containerStatuses[memhog].state = waiting (CrashLoopBackOff)',
      'containerStatuses[memhog].lastState.terminated.reason = OOMKilled',
      'containerStatuses[memhog].lastState.terminated.exitCode = 137',
      'containerStatuses[memhog].lastState.terminated.finishedAt = 2026-04-22T02:50:04Z',
    ]);
  });

  it('a bare pod name is read in the kubeconfig context’s namespace', async () => {
    const got = await fetch('pod', { pod: MEMHOG.name });
    expect(got.from.path).toBe(`/api/v1/namespaces/${MEMHOG.namespace}/pods/${MEMHOG.name}`);
  });

  it('lists the namespace’s events for the pod with a field selector, and cites the warnings', async () => {
    const got = await fetch('events', { pod: POD_ID });
    expect(got.from.path).toBe(
      `/api/v1/namespaces/${MEMHOG.namespace}/events?fieldSelector=involvedObject.name%3D${MEMHOG.name}&limit=500`,
    );
    expect(got.parser).toBeUndefined();
    expect(got.citations).toEqual([
      `event Warning BackOff (x4646) from kubelet: Back-off restarting failed container memhog in pod ${MEMHOG.name}_aiops-e2e(d99532da-7388-4d95-a264-211c7bb74a22)`,
    ]);
    // What a paste of `kubectl get events -o json` holds: each field on its own line.
    expect(got.paste).toContain('"reason": "BackOff",');
  });

  it('says when a pod has no events rather than citing nothing', async () => {
    const got = await fetch('events', { pod: `${MEMHOG.namespace}/other-pod` });
    expect(got.citations).toEqual(['events: none for this pod (they expire after an hour by default)']);
  });

  it('reads the previous container’s log tail, and the engine judges it as the pasted log', async () => {
    const got = await fetch('log', { pod: POD_ID, container: MEMHOG.container });
    expect(got.from.path).toBe(
      `/api/v1/namespaces/${MEMHOG.namespace}/pods/${MEMHOG.name}/log?container=memhog&limitBytes=8388608&previous=true&tailLines=200`,
    );
    const log = fixture('kubernetes/log-datasqrl-780-heap.txt');
    expect(got.paste).toBe(log);
    const playbooks = loadPlaybooks(PLAYBOOKS_DIR);
    const judged = async (text: string) =>
      (
        await diagnose({ input: { source: 'log', text }, workspace: 'test' }, { playbooks })
      ).report.diagnoses.map(({ playbook, cause, confidence }) => ({ playbook, cause, confidence }));
    const byFetch = await judged(got.paste);
    expect(byFetch).toEqual(await judged(log));
    expect(byFetch[0]?.playbook).toBe('flink-jvm-oom');
    expect(got.citations[0]).toBe('log[memhog, previous]: 8 lines (the last 200 asked)');
    expect(got.citations).toContain(
      'log[memhog, previous]: flink-jobmanager-1     | java.lang.OutOfMemoryError: Java heap space',
    );
  });

  it('asks for the configured number of log lines and gets only those', async () => {
    target = { ...target, tailLines: 2 };
    const got = await fetch('log', { pod: POD_ID, container: MEMHOG.container });
    expect(got.paste.split('\n').filter(Boolean)).toHaveLength(2);
    expect(fake.seen.at(-1)?.path).toContain('tailLines=2');
  });

  it.each([
    ['a path in the pod name', '../secrets/x', /"..\/secrets\/x" is not a pod/],
    ['an upper-case name', 'Etl/Pod', /"Etl\/Pod" is not a pod \(expected <namespace>\/<pod> or <pod>/],
    ['three parts', 'a/b/c', /"a\/b\/c" is not a pod/],
  ])('refuses %s before any request is made', async (_what, pod, message) => {
    await expect(fetch('pod', { pod })).rejects.toThrow(message);
    expect(fake.seen).toEqual([]);
  });

  it('refuses a container name that is not one, and a resource it does not have', async () => {
    await expect(fetch('log', { pod: POD_ID, container: 'a b' })).rejects.toThrow(
      /"a b" is not a container name/,
    );
    await expect(fetch('secrets', { pod: POD_ID })).rejects.toThrow(
      'Kubernetes API server cannot fetch "secrets" (it can: pod, events, log, ended-log).',
    );
    expect(fake.seen).toEqual([]);
  });

  it('reads only the namespaces connectors.yaml allows', async () => {
    const allowed = { ...target, namespaces: ['etl'] };
    await expect(
      kubernetesConnector.fetch({ resource: 'pod', ids: { pod: POD_ID } }, { target: allowed }),
    ).rejects.toThrow(
      'Kubernetes API server: namespace "aiops-e2e" is not one memdoctor may read (connectors.yaml kubernetes.namespaces: etl).',
    );
    expect(fake.seen).toEqual([]);
  });
});

describe('which container’s previous log a check reads', () => {
  const pod = () => JSON.parse(fixture('kubernetes/pod-aiops-memhog-oomkilled.json'));

  it('the OOMKilled one', () => {
    expect(podToCheck(pod())).toEqual({ container: 'memhog', previous: true });
  });

  it('the one that ended and was not restarted (restartPolicy Never): its own log, not a previous one', () => {
    const never = JSON.parse(fixture('kubernetes/assembled-pod-flink-native-tm-never-oomkilled.json'));
    expect(podToCheck(never)).toEqual({ container: 'flink-main-container', previous: false });
  });

  it('the same on a real restartPolicy Never pod (an Argo Workflows step): the killed container’s own log', () => {
    const argo = JSON.parse(fixture('kubernetes/pod-argo-main-container-oomkilled-never.json'));
    expect(podToCheck(argo)).toEqual({ container: 'main', previous: false });
  });

  it('none when no container has ended yet (the API server has no previous log then)', () => {
    const fresh = pod();
    fresh.status.containerStatuses[0].lastState = {};
    expect(podToCheck(fresh)).toBeUndefined();
    expect(podToCheck({ kind: 'Status' })).toBeUndefined();
  });
});
