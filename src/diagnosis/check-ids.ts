import type { ConnectorName, ConnectorsConfig } from '../connectors/config.ts';
import { CONNECTORS } from '../connectors/registry.ts';
import { ConnectorError, UsageError } from '../errors.ts';
import { planFor } from './check-plan.ts';

/**
 * Why `check <system> <id>` would be refused before anything is fetched, or undefined when it would
 * be asked: the system must be configured in connectors.yaml and the id must pass the same checks a
 * typed id passes (the plan's shape, then each connector's own grammar and, for Kubernetes, the
 * namespaces it may read). Ids built from an alert's fields go through this before they are queued.
 */
export function checkIdProblem(
  system: ConnectorName,
  id: string,
  connectors: ConnectorsConfig,
): string | undefined {
  const target = connectors[system];
  if (target === undefined) return `${system} is not configured in connectors.yaml.`;
  try {
    const plan = planFor({ system, id });
    const connector = CONNECTORS[system] as { checkIds(request: unknown, target: unknown): void };
    for (const request of plan.requests) connector.checkIds(request, target);
    return undefined;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConnectorError) return error.message;
    throw error;
  }
}
