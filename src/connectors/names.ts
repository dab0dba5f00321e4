import type { ConnectorName } from './config.ts';

/**
 * Every connector's key in connectors.yaml, in the order people meet them (help, schemas, docs).
 * Apart from config.ts so that a surface can list them without loading the connectors.
 */
export const CONNECTOR_NAMES = [
  'flink',
  'spark',
  'yarn',
  'kubernetes',
  'glue',
  'dataflow',
] as const satisfies readonly ConnectorName[];
