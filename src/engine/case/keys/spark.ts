import type { JoinKey } from './types.ts';

/*
 * Spark executor ids, in the messages that name them (apache/spark, core and resource-managers/yarn):
 * - TaskSchedulerImpl.executorLost / CoarseGrainedSchedulerBackend: `Lost executor ${executorId} on ${hostPort}: ${reason}`
 * - TaskSetManager.handleFailedTask: `Lost task 1.0 in stage 0.0 (TID 2) (10.0.0.5 executor 4): ...`
 *   (Spark 3), `(TID 2, host, executor 4)` (Spark 2), and `ExecutorLostFailure (executor 4 exited ...)`
 * - YarnAllocator.runAllocatedContainers: `Launching container ${containerId} on host ${host} for
 *   executor with ID ${executorId}` — the line that says which YARN container an executor is.
 * - the executorLogs URLs of the REST API and UI: `http://host:8042/node/containerlogs/<container>/<user>/stderr`
 *   (their container id is read by the YARN reader).
 * An executor id alone is only unique within one application, so the value is `<id>@<host>` when the
 * line names the host, and the join treats a bare id as a link inside its line only (see join.ts).
 */
const LOST_EXECUTOR = /\bLost executor (\d+) on ([\w.-]+)/g;
const TASK_EXECUTOR = /\(TID \d+(?:, |\) \()([\w.-]+),? executor (\d+)\)/g;
const EXECUTOR_WITH_ID = /\bon host ([\w.-]+) for executor with ID (\d+)/g;
const EXECUTOR_LOST = /\(executor (\d+) (?:exited|lost)/g;

function executor(id: string, host?: string): JoinKey {
  return { family: 'spark-executor', value: host ? `${id}@${host}` : id };
}

/** The Spark executors a line names, with their host when the line gives one. */
export function sparkKeys(line: string): JoinKey[] {
  if (!line.includes('xecutor')) return [];
  const keys: JoinKey[] = [];
  for (const [, id = '', host] of line.matchAll(LOST_EXECUTOR)) keys.push(executor(id, host));
  for (const [, host, id = ''] of line.matchAll(TASK_EXECUTOR)) keys.push(executor(id, host));
  for (const [, host, id = ''] of line.matchAll(EXECUTOR_WITH_ID)) keys.push(executor(id, host));
  for (const [, id = ''] of line.matchAll(EXECUTOR_LOST)) keys.push(executor(id));
  return keys;
}
