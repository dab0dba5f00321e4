import type { ConnectorName } from '../connectors/config.ts';
import { CONNECTOR_NAMES } from '../connectors/names.ts';
import { type CheckContext, type CheckResult, check } from '../diagnosis/check.ts';
import type { Asker } from '../diagnosis/fetch-access.ts';
import { ConnectorError, MemdoctorError, messageOf } from '../errors.ts';
import type { AlertCheck, RoutedAlert } from '../incidents/types.ts';

/** A check that was fetched and diagnosed. */
export interface AlertFinding {
  check: AlertCheck;
  result: CheckResult;
}

/** A check that could not be fetched: why, and what to type to fetch it by hand. */
export interface AlertMissing {
  check: AlertCheck;
  reason: string;
  command: string;
}

/** What an alert's checks gave: diagnoses from fetched evidence, and what is missing. */
export interface AlertAnswer {
  found: AlertFinding[];
  missing: AlertMissing[];
}

/** A connector did not answer and the alert has tries left: the worker retries it with backoff. */
export class ConnectorsDownError extends Error {
  constructor(readonly reasons: readonly string[]) {
    super(`a connector did not answer: ${reasons.join('; ')}`);
    this.name = 'ConnectorsDownError';
  }
}

/** How many tries wait for a connector that does not answer before the thread says what is missing. */
export const CONNECTOR_TRIES = 3;

/**
 * Who fetches for an alert: the route, in its channel. The gate lets an alert fetch only from a
 * connector whose access rule shows answers in that channel (connectors.yaml `access.<c>.showIn`),
 * since everyone there will read the thread; its people and groups rules name Slack people, who an
 * alert is not, so they do not apply. The caps count the route as one person.
 */
export function alertAsker(alert: RoutedAlert, workspace: string): Asker {
  return { surface: 'alert', workspace, user: `route:${alert.route}`, channel: alert.channel };
}

/** `/memdoctor check kubernetes flink/tm-1`: what a person types to fetch it themselves. */
export function checkCommand(one: AlertCheck): string {
  return `/memdoctor check ${one.connector} ${one.id}`.trim();
}

function isConnector(name: string): name is ConnectorName {
  return (CONNECTOR_NAMES as readonly string[]).includes(name);
}

/**
 * Fetches each of the alert's checks through the check use case (the gate, the caps, the id
 * grammar) and diagnoses what came back. A connector that does not answer is waited for (the
 * worker retries) for the first CONNECTOR_TRIES tries; after that, and for a refusal or a bad id at
 * once, the check is reported missing with what to type.
 */
export async function diagnoseAlert(
  alert: RoutedAlert,
  context: CheckContext & { workspace: string },
  attempt: number,
): Promise<AlertAnswer> {
  const answer: AlertAnswer = { found: [], missing: [] };
  const down: string[] = [];
  for (const one of alert.checks) {
    const missing = (reason: string) =>
      answer.missing.push({ check: one, reason, command: checkCommand(one) });
    if (!isConnector(one.connector)) {
      missing(`memdoctor has no connector named "${one.connector}" (check the route ${alert.route}).`);
      continue;
    }
    try {
      const request = { system: one.connector, id: one.id, workspace: context.workspace };
      answer.found.push({
        check: one,
        result: await check({ ...request, asker: alertAsker(alert, context.workspace) }, context),
      });
    } catch (error) {
      if (error instanceof ConnectorError && attempt < CONNECTOR_TRIES) down.push(error.message);
      else if (error instanceof MemdoctorError) missing(messageOf(error));
      else throw error;
    }
  }
  if (down.length > 0) throw new ConnectorsDownError(down);
  return answer;
}
