import type { JoinKey } from './types.ts';

/*
 * YARN ids, as ContainerId.toString and ApplicationId.toString print them (hadoop-yarn-api,
 * org/apache/hadoop/yarn/api/records/ContainerId.java and ApplicationId.java):
 *   container_[e<epoch>_]<clusterTimestamp>_<appId, >= 4 digits>_<attemptId, >= 2 digits>_<containerId, >= 6 digits>
 *   application_<clusterTimestamp>_<appId, >= 4 digits>
 * The epoch part (`e05_`) appears once the ResourceManager has restarted with work-preserving recovery
 * (since Hadoop 2.6); the legacy form has none. Container 1 of an attempt is its ApplicationMaster
 * (the Spark driver in cluster mode, the Flink JobManager).
 */
const CONTAINER = /\bcontainer_(?:e(\d+)_)?(\d{10,})_(\d{4,})_(\d{2,})_(\d{6,})\b/g;
const APPLICATION = /\bapplication_(\d{10,})_(\d{4,})\b/g;

/** A container id read apart: its application and whether it is the ApplicationMaster. */
export interface ContainerId {
  id: string;
  application: string;
  attempt: number;
  sequence: number;
  applicationMaster: boolean;
}

export function parseContainerId(text: string): ContainerId | undefined {
  const match = new RegExp(CONTAINER.source).exec(text);
  if (!match) return undefined;
  const [id, , clusterTs, app, attempt, sequence] = match;
  return {
    id,
    application: `application_${clusterTs}_${app}`,
    attempt: Number(attempt),
    sequence: Number(sequence),
    applicationMaster: Number(sequence) === 1,
  };
}

/** The YARN container and application ids a line names; a container names its application too. */
export function yarnKeys(line: string): JoinKey[] {
  const keys: JoinKey[] = [];
  for (const match of line.matchAll(CONTAINER)) {
    const container = parseContainerId(match[0]);
    if (!container) continue;
    keys.push({ family: 'yarn-container', value: container.id });
    keys.push({ family: 'yarn-application', value: container.application });
  }
  for (const match of line.matchAll(APPLICATION)) keys.push({ family: 'yarn-application', value: match[0] });
  return keys;
}
