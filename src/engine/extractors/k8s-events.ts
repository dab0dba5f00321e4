import type { Finding } from '../facts.ts';
import type { Extractor, MessageFamily } from './types.ts';

const EVICTION_SOURCE = 'kubernetes/kubernetes pkg/kubelet/eviction/helpers.go + eviction_manager.go';

// A pod evicted for disk, not memory: the kubelet's local-storage checks and node-pressure evictions
// for a filesystem signal. The container exits 137 like an OOM kill, so this is what tells them apart.
const DISK_EVICTIONS: readonly { re: RegExp; signal: string }[] = [
  // nodeLowMessageFmt "The node was low on resource: %v. " with a disk resource: ephemeral-storage
  // (1.8+), nodefs / imagefs (1.5-1.7), inodes.
  {
    re: /The node was low on resource: \[?(ephemeral-storage|nodefs|imagefs|inodes|nodefsInodes|imagefsInodes)\b/i,
    signal: 'node-disk',
  },
  // podEphemeralStorageMessageFmt (1.8+).
  {
    re: /Pod ephemeral local storage usage exceeds the total limit of containers/i,
    signal: 'pod-ephemeral-limit',
  },
  // containerEphemeralStorageMessageFmt (1.8+).
  { re: /exceeded its local ephemeral storage limit/i, signal: 'container-ephemeral-limit' },
  // emptyDirMessageFmt (1.8+).
  { re: /Usage of EmptyDir volume .{1,300}? exceeds the limit/i, signal: 'emptydir-limit' },
  // nodeConditionMessageFmt "The node had condition: %v. " with DiskPressure.
  { re: /The node had condition: \[?DiskPressure\b/i, signal: 'disk-pressure' },
];

// The scheduler's FitError: "0/3 nodes are available: 3 Insufficient memory." (1.10+) or
// "No nodes are available that match all of the predicates: Insufficient memory (3)." (before 1.10),
// reasons from noderesources/fit.go (predicates.go before 1.18): "Insufficient %v".
const NO_NODE = /\b\d{1,6}\/\d{1,6} nodes are available\b|No nodes are available that match all of the/i;
const INSUFFICIENT = /\bInsufficient (memory|cpu)\b/i;
// The kubelet's own admission check refusing a pod the scheduler placed (reason OutOfmemory / OutOfcpu).
const ADMISSION = /Node didn't have enough resource: (memory|cpu)\b/i;

// plugin/pkg/admission/resourcequota/controller.go: "exceeded quota: %s, requested: %s, used: %s,
// limited: %s" and "failed quota: %s: must specify %s". A refused pod, not a memory failure.
const QUOTA =
  /\bexceeded quota: [\w.-]{1,253}, requested: ([\w./=-]{1,80})|\bfailed quota: [\w.-]{1,253}: must specify/i;

function diskEviction(line: string): Finding | undefined {
  for (const { re, signal } of DISK_EVICTIONS) {
    if (re.test(line)) return { kind: 'k8s.evicted-disk', values: { signal } };
  }
  return undefined;
}

const FAMILIES: readonly MessageFamily[] = [
  {
    name: 'node-pressure eviction for a disk resource',
    kind: 'k8s.evicted-disk',
    source: `${EVICTION_SOURCE} (nodeLowMessageFmt)`,
    versions: 'Kubernetes 1.8+ (ephemeral-storage), 1.5-1.7 (nodefs, imagefs)',
    examples: [
      'The API gave the following message: The node was low on resource: ephemeral-storage. Threshold quantity: 308595705, available: 265968Ki. Container spark-kubernetes-executor was using 857242, request is 0, has larger consumption of ephemeral-storage.',
      '  Warning  Evicted    12m   kubelet  The node was low on resource: nodefs.',
    ],
  },
  {
    name: 'pod over its ephemeral-storage limit',
    kind: 'k8s.evicted-disk',
    source: `${EVICTION_SOURCE} (podEphemeralStorageMessageFmt, podEphemeralStorageLimitEviction)`,
    versions: 'Kubernetes 1.8+',
    examples: [
      'Worker flink-etl-taskmanager-1-7 is terminated. Diagnostics: Pod terminated, container termination statuses: [flink-main-container(exitCode=137, reason=Error, message=null)], pod status: Failed(reason=Evicted, message=Pod ephemeral local storage usage exceeds the total limit of containers 2Gi. )',
    ],
  },
  {
    name: 'container over its ephemeral-storage limit',
    kind: 'k8s.evicted-disk',
    source: `${EVICTION_SOURCE} (containerEphemeralStorageMessageFmt)`,
    versions: 'Kubernetes 1.8+',
    examples: ['Message:      Container taskmanager exceeded its local ephemeral storage limit "1Gi". '],
  },
  {
    name: 'EmptyDir volume over its size limit',
    kind: 'k8s.evicted-disk',
    source: `${EVICTION_SOURCE} (emptyDirMessageFmt, emptyDirLimitEviction)`,
    versions: 'Kubernetes 1.8+',
    examples: [
      '  Warning  Evicted  3m  kubelet  Usage of EmptyDir volume "spark-local-dir-1" exceeds the limit "10Gi". ',
    ],
  },
  {
    name: 'node under DiskPressure',
    kind: 'k8s.evicted-disk',
    source: `${EVICTION_SOURCE} (nodeConditionMessageFmt)`,
    versions: 'Kubernetes 1.5+',
    examples: ['Message:        The node had condition: [DiskPressure]. '],
  },
  {
    name: 'pod cannot be scheduled: no node has the memory or CPU it requests',
    kind: 'k8s.unschedulable',
    source:
      'kubernetes/kubernetes pkg/scheduler/framework/plugins/noderesources/fit.go ("Insufficient %v") + pkg/scheduler/framework/types.go (FitError)',
    versions:
      'Kubernetes 1.10+ ("0/N nodes are available"); before 1.10 "No nodes are available that match all of the predicates"',
    examples: [
      '  Warning  FailedScheduling  2m (x14 over 17m)  default-scheduler  0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
      'Warning  FailedScheduling  default-scheduler  No nodes are available that match all of the predicates: Insufficient cpu (2), Insufficient memory (3).',
    ],
  },
  {
    name: 'the kubelet refused a pod its node has no room for',
    kind: 'k8s.unschedulable',
    source:
      'kubernetes/kubernetes pkg/kubelet/lifecycle/predicate.go and pkg/scheduler/framework/plugins/noderesources (InsufficientResourceError.Error)',
    versions: 'Kubernetes 1.x (pod status reason OutOfmemory / OutOfcpu)',
    examples: [
      "  Warning  OutOfmemory  12s   kubelet  Node didn't have enough resource: memory, requested: 4294967296, used: 12884901888, capacity: 16462233600",
    ],
  },
  {
    name: 'resource quota refused the pod',
    kind: 'k8s.quota-exceeded',
    source: 'kubernetes/kubernetes plugin/pkg/admission/resourcequota/controller.go',
    versions: 'Kubernetes 1.x',
    examples: [
      'Error from server (Forbidden): pods "flink-taskmanager-1-3" is forbidden: exceeded quota: compute-resources, requested: limits.memory=4Gi, used: limits.memory=14Gi, limited: limits.memory=16Gi',
      'pods "spark-exec-1" is forbidden: failed quota: mem-cpu-demo: must specify limits.memory',
    ],
  },
];

/** Kubernetes pod fates that are not memory kills (disk evictions, quotas) and unschedulable pods. */
export const k8sEvents: Extractor = {
  id: 'k8s-events',
  description:
    'Kubernetes evictions for disk (ephemeral storage, EmptyDir, DiskPressure), unschedulable pods, quota refusals',
  triggers: [
    'low on resource',
    'ephemeral',
    'emptydir',
    'diskpressure',
    'nodes are available',
    'quota',
    'enough resource',
  ],
  extract(line) {
    const findings: Finding[] = [];
    const disk = diskEviction(line);
    if (disk) findings.push(disk);
    const insufficient = NO_NODE.test(line) ? INSUFFICIENT.exec(line) : ADMISSION.exec(line);
    if (insufficient)
      findings.push({
        kind: 'k8s.unschedulable',
        values: { resource: (insufficient[1] ?? '').toLowerCase() },
      });
    const quota = QUOTA.exec(line);
    if (quota)
      findings.push({ kind: 'k8s.quota-exceeded', values: { requested: quota[1] ?? 'unspecified' } });
    return findings;
  },
  families: FAMILIES,
  patterns: [...DISK_EVICTIONS.map((d) => d.re), NO_NODE, INSUFFICIENT, ADMISSION, QUOTA],
};
