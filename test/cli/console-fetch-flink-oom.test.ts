import { describe, expect, it } from 'vitest';
import { kubeFake, kubeTargetFor, MEMHOG } from '../connectors/fakes/kube-fake.ts';
import { FLINK_TM, flinkFake } from '../connectors/fakes/systems.ts';
import { targetFor, useFake } from '../connectors/support.ts';
import { runRealConsole } from './console-harness.ts';

/** flink-container-oom-killed's first question, answered "It runs on Kubernetes: read the TaskManager pod" (3). */
const TO_POD = ['walk flink-container-oom-killed', '3'];
/** After the two fetches: JDK 11+ (2), no shell (2), RocksDB (1), managed (1). */
const TO_CONCLUSION = ['2', '2', '1', '1'];

describe('console: a Flink TaskManager OOM-killed on Kubernetes, fetched from the Kubernetes and Flink fakes', () => {
  const kube = useFake(kubeFake);
  const flink = useFake(flinkFake);
  const connectors = () => ({ kubernetes: kubeTargetFor(kube.url), flink: targetFor(flink.url) });

  it("reaches the conclusion with no paste: the pod's lastState and a TaskManager's gauges are fetched", async () => {
    const pod = `${MEMHOG.namespace}/${MEMHOG.name}`;
    const out = await runRealConsole(
      [...TO_POD, `fetch ${pod}`, `fetch ${FLINK_TM}`, ...TO_CONCLUSION, 'transcript'],
      connectors(),
    );
    expect(out).toContain('or type `fetch <pod>` to fetch it from Kubernetes API server');
    expect(out).toContain('or type `fetch <taskManagerId>` to fetch it from Flink JobManager');
    // The pod's last termination, cited from the fetched object.
    expect(out).toContain('OOMKilled at the container memory limit');
    // The gauges as fetched fields, in bytes read as sizes.
    expect(out).toContain(
      `taskmanagers/${FLINK_TM}/metrics Status.JVM.Memory.Heap.Used = 80.9 MB (84856832 bytes)`,
    );
    expect(out).toContain('The heap uses less than half its maximum');
    expect(out).toContain('## Conclusion: RocksDB briefly exceeds managed memory');
    expect(out).toMatch(
      /Fetched from kubernetes: GET \/api\/v1\/namespaces\/aiops-e2e\/pods\/memhog-\S+ at \d{4}-/,
    );
    expect(out).toMatch(/Fetched from flink: GET \/taskmanagers\/[^/]+\/metrics\?get=\S+ at \d{4}-/);
    expect(kube.fake.seen.map((s) => s.path)).toEqual([
      `/api/v1/namespaces/${MEMHOG.namespace}/pods/${MEMHOG.name}`,
    ]);
    expect(flink.fake.seen).toHaveLength(1);
  });

  it('a TaskManager the JobManager does not know: Flink answers [], said for what it means, and the step still takes a paste', async () => {
    const out = await runRealConsole(
      [...TO_POD, `fetch ${MEMHOG.name}`, 'fetch no-such-taskmanager', 'status'],
      connectors(),
    );
    // AbstractMetricsHandler answers an empty list, not a 404, for a TaskManager it holds no metrics of.
    expect(out).toContain(
      'Flink JobManager answered, but the answer is an empty list: Flink holds no metrics for that TaskManager',
    );
    expect(out).not.toContain('does not look like');
    expect(out).toContain('The step can still be answered by hand.');
    expect(out).toMatch(/Current:\n.*How full are a TaskManager's heap, metaspace and direct memory\?/);
  });

  it('unconfigured, the steps offer no fetch and nothing is requested', async () => {
    const out = await runRealConsole([...TO_POD, 'status']);
    expect(out).not.toContain('fetch it from');
    expect(kube.fake.seen).toEqual([]);
    expect(flink.fake.seen).toEqual([]);
  });
});
