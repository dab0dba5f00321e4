import type { ConnectorName, ConnectorsConfig } from '../../../src/usecases/connectors.ts';

/**
 * `connectors` with an access rule for each configured connector that shows its answers to
 * `channels` (connectors.yaml `access.<name>.showIn`): what an operator sets so a channel's
 * walkthroughs can fetch and its checks answer in the channel.
 */
export function showAnswersIn(connectors: ConnectorsConfig, ...channels: string[]): ConnectorsConfig {
  const names = (Object.keys(connectors) as (ConnectorName | 'access')[]).filter(
    (name): name is ConnectorName => name !== 'access',
  );
  return { ...connectors, access: Object.fromEntries(names.map((name) => [name, { showIn: channels }])) };
}
