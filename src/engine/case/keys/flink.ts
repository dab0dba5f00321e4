import type { JoinKey } from './types.ts';

/*
 * Flink TaskManager resource ids (apache/flink, ResourceManager and TaskExecutor logs):
 * - `Registering TaskManager with ResourceID <id> (<address>) at ResourceManager`
 * - `Worker <id> is terminated. Diagnostics: ...` / `Closing TaskExecutor connection <id> because: ...`
 * On YARN the ResourceID is the container id (YarnResourceManagerDriver uses
 * container.getId().toString()), so the YARN reader joins those; on Kubernetes it is the pod name
 * (`<cluster-id>-taskmanager-<attempt>-<n>`), which names the same thing as the pod key.
 */
const RESOURCE_ID =
  /\b(?:TaskManager with ResourceID|TaskExecutor connection|Worker) ([\w.:-]+?)(?: \(| is | because|$)/g;
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
