import type { WebClient } from '@slack/web-api';
import { diagnoseAlert, type IncidentContext, processAlert, type RoutedAlert } from '../usecases/alerts.ts';
import type { AlertMetrics } from './alert-metrics.ts';
import { slackIncidentThread } from './alert-thread.ts';
import type { SlackDeps } from './deps.ts';
import { gateOf } from './fetch-gate.ts';

/** One delivery as the worker hands it over. */
export interface AlertDelivery {
  alert: RoutedAlert;
  /** Failed attempts before this one. */
  attempts: number;
}

/** What the handler needs besides the app's dependencies. */
export interface AlertHandlerSetup {
  /** The incidents' state (the intake's queue). */
  incidents: IncidentContext['incidents'];
  /** The Slack workspace (team id) the bot posts in, from auth.test. */
  workspace: string;
  /** Who owns the walkthroughs an alert starts: the bot's user id (on-call people answer its steps). */
  owner: string;
  metrics?: AlertMetrics;
}

/** Slack's answer to too many calls, when the client was told not to wait itself: how long to wait. */
function retryAfterMs(error: unknown): number | undefined {
  const limited = error as { code?: string; retryAfter?: number };
  return limited.code === 'slack_webapi_rate_limited_error' && typeof limited.retryAfter === 'number'
    ? limited.retryAfter * 1000
    : undefined;
}

/**
 * Processes one alert delivery into its incident's thread (processAlert with the app's connectors,
 * gate, playbooks and cases). Any failure is thrown for the worker to retry; a rate limit carries
 * Slack's Retry-After so the retry waits at least that long.
 */
export function alertHandler(deps: SlackDeps, client: WebClient, setup: AlertHandlerSetup) {
  const { workspace } = setup;
  const context: IncidentContext = {
    incidents: setup.incidents,
    workspace,
    log: deps.log,
    diagnose: (alert, attempt) =>
      diagnoseAlert(
        alert,
        { connectors: deps.connectors ?? {}, gate: gateOf(deps), playbooks: deps.playbooks, workspace },
        attempt,
      ),
    ...(deps.cases
      ? { cases: { store: deps.cases.store, limits: deps.cases.limits, playbooks: deps.playbooks } }
      : {}),
  };
  const thread = slackIncidentThread(deps, client, { workspace, owner: setup.owner });
  return async (delivery: AlertDelivery): Promise<void> => {
    try {
      const change = await processAlert(context, thread, delivery.alert, delivery.attempts + 1);
      setup.metrics?.processed.inc({ change });
      deps.log.info(
        { incident: delivery.alert.event.incidentKey, route: delivery.alert.route, change },
        'alert processed',
      );
    } catch (error) {
      const wait = retryAfterMs(error);
      if (wait !== undefined) Object.assign(error as object, { retryAfterMs: wait });
      throw error;
    }
  };
}
