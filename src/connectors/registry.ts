import type { ConnectorName, ConnectorTargets } from './config.ts';
import { flinkConnector } from './flink.ts';
import { kubernetesConnector } from './kubernetes.ts';
import { sparkConnector } from './spark.ts';
import type { Connector } from './types.ts';
import { yarnConnector } from './yarn.ts';

/** Every connector, by the key its settings have in connectors.yaml. Adding one: one file, one line. */
export const CONNECTORS: { readonly [K in ConnectorName]: Connector<ConnectorTargets[K]> } = {
  flink: flinkConnector,
  spark: sparkConnector,
  yarn: yarnConnector,
  kubernetes: kubernetesConnector,
};

/** The connector named `name`, typed to take that name's settings. */
export function connectorFor<K extends ConnectorName>(name: K): Connector<ConnectorTargets[K]> {
  return CONNECTORS[name];
}
