import { describe, expect, it } from 'vitest';
import { k8sEvents } from '../../../src/engine/extractors/k8s-events.ts';
import { findingsOf, kindsOf } from './run-extractor.ts';

describe('k8s-events', () => {
  it.each([
    // Templates t061 (Flink native Kubernetes, kubelet podEphemeralStorageMessageFmt).
    [
      'WARN  org.apache.flink.runtime.resourcemanager.active.ActiveResourceManager [] - Worker flink-etl-taskmanager-1-7 is terminated. Diagnostics: Pod terminated, container termination statuses: [flink-main-container(exitCode=137, reason=Error, message=null)], pod status: Failed(reason=Evicted, message=Pod ephemeral local storage usage exceeds the total limit of containers 2Gi. )',
      'pod-ephemeral-limit',
    ],
    // Templates t031 (Spark on Kubernetes relaying nodeLowMessageFmt).
    [
      'The API gave the following message: The node was low on resource: ephemeral-storage. Threshold quantity: 308595705, available: 265968Ki. Container spark-kubernetes-executor was using 857242, request is 0, has larger consumption of ephemeral-storage.',
      'node-disk',
    ],
    // Real kubelet messages quoted in a test of another project (search index id 71281660623).
    [
      'Container wordpress exceeded its local ephemeral storage limit "2048Mi". ',
      'container-ephemeral-limit',
    ],
    ['Usage of EmptyDir volume "multihost-sessions" exceeds the limit "256Mi". ', 'emptydir-limit'],
    ['Message:        The node had condition: [DiskPressure]. ', 'disk-pressure'],
  ])('%s -> a disk eviction (%s)', (line, signal) => {
    expect(findingsOf(k8sEvents, line)).toEqual([{ kind: 'k8s.evicted-disk', values: { signal } }]);
  });

  it.each([
    [
      'Warning  FailedScheduling  2m (x14 over 17m)  default-scheduler  0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
      'memory',
    ],
    [
      'Warning  FailedScheduling  default-scheduler  0/5 nodes are available: 2 node(s) had taint {dedicated: infra}, 3 Insufficient cpu.',
      'cpu',
    ],
    // The kubelet's admission check (lifecycle/predicate.go), pod reason OutOfmemory.
    [
      "  Warning  OutOfmemory  12s   kubelet  Node didn't have enough resource: memory, requested: 4294967296, used: 12884901888, capacity: 16462233600",
      'memory',
    ],
  ])('an unschedulable pod: %s', (line, resource) => {
    expect(findingsOf(k8sEvents, line)).toEqual([{ kind: 'k8s.unschedulable', values: { resource } }]);
  });

  it('reads what a quota refused', () => {
    expect(
      findingsOf(
        k8sEvents,
        'Error from server (Forbidden): pods "flink-taskmanager-1-3" is forbidden: exceeded quota: compute-resources, requested: limits.memory=4Gi, used: limits.memory=14Gi, limited: limits.memory=16Gi',
      ),
    ).toEqual([{ kind: 'k8s.quota-exceeded', values: { requested: 'limits.memory=4Gi' } }]);
  });

  it.each([
    // Memory pressure is a memory eviction: container-kill reports it, this extractor does not.
    'The node was low on resource: memory. Threshold quantity: 100Mi, available: 91344Ki.',
    "Warning  FailedScheduling  default-scheduler  0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.",
    'Insufficient memory to start the JVM',
    'spark.kubernetes.executor.volumes.emptyDir.spark-local-dir-1.options.sizeLimit=10Gi',
    'INFO  quota project set to my-project',
  ])('finds nothing in %s', (line) => {
    expect(kindsOf(k8sEvents, line)).toEqual([]);
  });
});
