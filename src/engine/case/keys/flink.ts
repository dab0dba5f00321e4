import type { JoinKey } from './types.ts';

/*
 * Flink TaskManager resource ids (apache/flink, ResourceManager and TaskExecutor logs):
 * - `Registering TaskManager with ResourceID <id> (<address>) at ResourceManager`
 * - `Worker <id> is terminated. Diagnostics: ...` / `Closing TaskExecutor connection <id> because: ...`
 * On YARN the ResourceID is the container id (YarnResourceManagerDriver uses
 * container.getId().toString()), so the YARN reader joins those; on Kubernetes it is the pod name
 * (`<cluster-id>-taskmanager-<attempt>-<n>`), which names the same thing as the pod key.
 * Since Flink 1.12 (FLINK-15448, apache/flink#13063) the YARN ResourceID carries the node too:
 * `container_e481_1710116763206_0003_01_000002(hadoop-03:45454)` (DataLinkDC/dinky#3273:
 * `Closing TaskExecutor connection container_..._000002(hadoop-03:45454) because: ...`); the key is
 * the container id, without the node, so it still equals the YARN reader's.
 */
const RESOURCE_ID =
  /\b(?:TaskManager with ResourceID|TaskExecutor connection|Worker) ([\w.:-]+?)(?:\([\w.-]{1,253}:\d{1,5}\))?(?: \(| is | because|$)/g;
const K8S_TASKMANAGER_POD = /^[a-z0-9-]+-taskmanager-\d+-\d+$/;

/** The TaskManagers a line names; a Kubernetes one is also its pod. */
export function flinkKeys(line: string): JoinKey[] {
  if (!/TaskManager|TaskExecutor|Worker/.test(line)) return [];
  const keys: JoinKey[] = [];
  for (const [, id = ''] of line.matchAll(RESOURCE_ID)) {
    keys.push({ family: 'flink-taskmanager', value: id });
    if (K8S_TASKMANAGER_POD.test(id)) keys.push({ family: 'k8s-pod', value: id });
  }
  return keys;
}
