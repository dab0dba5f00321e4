import type { RestName } from './config.ts';
import { flinkConnector } from './flink.ts';
import { sparkConnector } from './spark.ts';
import type { Connector } from './types.ts';
import { yarnConnector } from './yarn.ts';

/** Every connector, by the key its settings have in connectors.yaml. Adding one: one file, one line. */
export const CONNECTORS: Readonly<Record<RestName, Connector>> = {
  flink: flinkConnector,
  spark: sparkConnector,
  yarn: yarnConnector,
};
