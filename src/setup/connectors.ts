import { type Config, secretFromEnv } from '../config.ts';
import { type ConnectorsConfig, loadConnectorsConfig } from '../connectors/config.ts';

/** The connectors.yaml MEMDOCTOR_CONNECTORS names, when set; a bad file stops start-up with its error. */
export function configuredConnectors(config: Config): ConnectorsConfig | undefined {
  if (!config.MEMDOCTOR_CONNECTORS) return undefined;
  return loadConnectorsConfig(config.MEMDOCTOR_CONNECTORS, (name) => secretFromEnv(name));
}
