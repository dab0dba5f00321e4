import type { MessageFamily } from './types.ts';

const YARN_ALLOCATOR =
  'apache/spark resource-managers/yarn/src/main/scala/org/apache/spark/deploy/yarn/YarnAllocator.scala';
const MONITOR =
  'apache/hadoop hadoop-yarn-project/hadoop-yarn/hadoop-yarn-server/hadoop-yarn-server-nodemanager/src/main/java/org/apache/hadoop/yarn/server/nodemanager/containermanager/monitor/ContainersMonitorImpl.java';

/** The message families container-kill recognises, with the source of each wording. */
export const CONTAINER_KILL_FAMILIES: readonly MessageFamily[] = [
  {
    name: "Spark's reading of a YARN memory kill",
    kind: 'container.killed-memory',
    source: `${YARN_ALLOCATOR} (processCompletedContainers, memLimitExceededLogMessage)`,
    versions:
      'Spark 1.x-2.2 ("exceeding memory limits", spark.yarn.executor.memoryOverhead), 2.3+ ("exceeding physical|virtual memory limits", YARN-4714 hint), 3.0+ (spark.executor.memoryOverhead)',
    examples: [
      '18/06/13 16:54:29 WARN YarnAllocator: Container killed by YARN for exceeding memory limits. 5.5 GB of 5.5 GB physical memory used. Consider boosting spark.yarn.executor.memoryOverhead.',
      'WARN YarnAllocator: Container killed by YARN for exceeding physical memory limits. 6.6 GB of 6.6 GB physical memory used. Consider boosting spark.executor.memoryOverhead.',
      'Container killed by YARN for exceeding virtual memory limits. 2.2 GB of 2.1 GB virtual memory used. Consider boosting spark.executor.memoryOverhead or boosting yarn.nodemanager.vmem-pmem-ratio or disabling yarn.nodemanager.vmem-check-enabled because of YARN-4714.',
    ],
  },
  {
    name: "the NodeManager's own kill message",
    kind: 'container.killed-memory',
    source: `${MONITOR} (checkLimit, formatErrorMessage; usage from TraditionalBinaryPrefix.long2String)`,
    versions:
      'Hadoop 2.x ("is running beyond physical|virtual memory limits"), Hadoop 3.x ("is running NB beyond the \'PHYSICAL\'|\'VIRTUAL\' memory limit")',
    examples: [
      'Container [pid=4733,containerID=container_1409135750325_48141_02_000001] is running beyond physical memory limits. Current usage: 2.0 GB of 2 GB physical memory used; 6.0 GB of 4.2 GB virtual memory used. Killing container.',
      "Container [pid=12345,containerID=container_e12_1571234567890_0012_01_000004] is running 2654208B beyond the 'PHYSICAL' memory limit. Current usage: 4.5 GB of 4.5 GB physical memory used; 6.8 GB of 9.4 GB virtual memory used. Killing container.",
      "Container [pid=9876,containerID=container_1571234567890_0012_01_000002] is running 318767104B beyond the 'VIRTUAL' memory limit. Current usage: 1.1 GB of 2 GB physical memory used; 4.5 GB of 4.2 GB virtual memory used. Killing container.",
    ],
  },
  {
    name: 'a usage line at or over its limit (the kill message wrapped onto its own line)',
    kind: 'container.killed-memory',
    source: `${MONITOR} (formatUsageString) as quoted by ${YARN_ALLOCATOR}`,
    versions: 'Hadoop 2.x-3.x',
    examples: [
      '4.5 GB of 4.5 GB physical memory used. Consider boosting spark.yarn.executor.memoryOverhead.',
    ],
  },
  {
    name: 'Kubernetes: container OOMKilled, or pod evicted for node memory pressure',
    kind: 'container.killed-memory',
    source:
      'kubernetes/kubernetes pkg/kubelet (termination reason OOMKilled from the runtime); pkg/kubelet/eviction/helpers.go (nodeLowMessageFmt with resource memory); apache/spark ExecutorPodsLifecycleManager.scala (containersDescription); apache/flink KubernetesResourceManagerDriver (pod terminated diagnostics)',
    versions: 'Kubernetes 1.x; Spark 3.x on Kubernetes; Flink 1.12+ native Kubernetes',
    examples: [
      '      Reason:       OOMKilled',
      '\t termination reason: OOMKilled',
      '            "OOMKilled": true,',
      'Worker flink-taskmanager-1-2 is terminated. Diagnostics: Pod terminated, container termination statuses: [flink-main-container(exitCode=137, reason=OOMKilled, message=null)], pod status: Failed(reason=null, message=null)',
      'The API gave the following message: The node was low on resource: memory. Threshold quantity: 100Mi, available: 81316Ki. Container spark-kubernetes-executor was using 6943220Ki, request is 4505Mi, has larger consumption of memory.',
    ],
  },
];
