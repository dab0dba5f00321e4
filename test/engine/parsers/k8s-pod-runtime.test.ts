import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnoseText } from '../../../src/engine/index.ts';
import { parseText } from '../../../src/engine/parsers/parse-text.ts';
import { loadPlaybooks } from '../../../src/playbooks/load.ts';

const TEST = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(TEST, path), 'utf8');
const PLAYBOOKS = loadPlaybooks();
const kinds = (text: string) => parseText('k8s-pod', text).facts.map((f) => f.kind);
const playbooks = async (text: string) =>
  (await diagnoseText('paste', text, PLAYBOOKS)).report.diagnoses.map((d) => d.playbook);

// Issue 35, finding 11: an OOMKilled container is a JVM's only when what it runs says so (SOURCES.md).
describe('k8s-pod: whose memory kill it is, and where the kill is recorded', () => {
  it('an OOMKilled Go container (metrics-server, kubectl describe) is not judged a JVM', async () => {
    const text = read('engine/parsers/fixtures/k8s-pod/ibm-cloud-metrics-server-oomkilled.txt');
    expect(kinds(text)).toEqual(['container.killed-memory', 'container.no-jvm-sign', 'parsed.k8s-pod']);
    expect(await playbooks(text)).not.toContain('jvm-oom');
  });

  it('an OOMKilled Python container (kubectl get pod -o yaml) is not judged a JVM either', async () => {
    const text = read('engine/parsers/fixtures/k8s-pod/aiops-memhog-get-pod-yaml.txt');
    expect(kinds(text)).toContain('container.no-jvm-sign');
    expect(await playbooks(text)).not.toContain('jvm-oom');
  });

  it('a native Flink TaskManager (restartPolicy Never) killed in state.terminated is read, as Flink’s', async () => {
    const text = read('connectors/fixtures/kubernetes/assembled-pod-flink-native-tm-never-oomkilled.json');
    const out = parseText('k8s-pod', text);
    expect(out.values).toMatchObject({
      container: 'flink-main-container',
      oomKilled: true,
      exitCode: 137,
      restartCount: 0,
      memoryLimitBytes: 1728 * 1024 ** 2,
    });
    expect(out.facts.map((f) => f.kind)).toEqual(['container.killed-memory', 'parsed.k8s-pod']);
    const found = await playbooks(text);
    expect(found[0]).toBe('flink-container-oom-killed');
    expect(found).not.toContain('jvm-oom');
  });

  it('a real restartPolicy Never pod (an Argo Workflows step, k3s) killed in state.terminated: read, and no JVM’s', async () => {
    const text = read('engine/parsers/fixtures/k8s-pod/argo-main-container-oomkilled-yaml.txt');
    const out = parseText('k8s-pod', text);
    expect(out.values).toMatchObject({ container: 'main', oomKilled: true, exitCode: 137, restartCount: 0 });
    expect(out.facts.map((f) => f.kind)).toEqual([
      'container.killed-memory',
      'container.no-jvm-sign',
      'parsed.k8s-pod',
    ]);
    expect(out.summary).toBe(
      'Container main of a pod pasted without its name: OOMKilled, exit code 137, no memory limit, 0 restarts.',
    );
    expect(await playbooks(text)).not.toContain('jvm-oom');
  });

  it('prefers the OOMKilled end when a container has ended twice (state and lastState)', () => {
    const pod = JSON.parse(read('connectors/fixtures/kubernetes/pod-aiops-memhog-oomkilled.json'));
    const status = pod.status.containerStatuses[0];
    status.state = { terminated: { reason: 'Error', exitCode: 1 } };
    expect(parseText('k8s-pod', JSON.stringify(pod)).values).toMatchObject({
      reason: 'OOMKilled',
      exitCode: 137,
    });
  });
});
