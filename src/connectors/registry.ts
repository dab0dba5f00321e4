import type { ConnectorName, ConnectorTargets } from './config.ts';
import { dataflowConnector } from './dataflow.ts';
import { flinkConnector } from './flink.ts';
import { glueConnector } from './glue.ts';
import { kubernetesConnector } from './kubernetes.ts';
import { sparkConnector } from './spark.ts';
import type { Connector, Fetched, FetchRequest } from './types.ts';
import { yarnConnector } from './yarn.ts';

/** The settings a connector runs with: its entry of connectors.yaml, as parsed. */
export type TargetOf<K extends ConnectorName> = ConnectorTargets[K];

/** Every connector, by the key its settings have in connectors.yaml. Adding one: one file, one line. */
export const CONNECTORS: { readonly [K in ConnectorName]: Connector<TargetOf<K>> } = {
  flink: flinkConnector,
  spark: sparkConnector,
  yarn: yarnConnector,
  kubernetes: kubernetesConnector,
  glue: glueConnector,
  dataflow: dataflowConnector,
};

/** Fetches one resource with the named connector and its configured target. */
export function fetchWith<K extends ConnectorName>(
  name: K,
  target: TargetOf<K>,
  request: FetchRequest,
  now?: () => Date,
): Promise<Fetched> {
  const connector: Connector<TargetOf<K>> = CONNECTORS[name];
  return connector.fetch(request, { target, ...(now ? { now } : {}) });
}
