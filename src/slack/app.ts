import type { IncomingMessage, ServerResponse } from 'node:http';
import { App, type CustomRoute } from '@slack/bolt';
import type { WebClient, WebClientOptions } from '@slack/web-api';
import { AckQueue, acknowledgeFirst } from './ack-first.ts';
import { boltLogger } from './bolt-logger.ts';
import type { SlackDeps } from './deps.ts';
import { explainFailure } from './failures.ts';
import { registerListeners } from './listeners/index.ts';
import { metricsRoute } from './metrics-server.ts';
import { dedupeEvents } from './middleware.ts';
import { createHttpReceiver } from './receiver.ts';
import { SlackAuthWatch } from './slack-auth.ts';

/** How the app reaches Slack; everything else comes through SlackDeps. */
export interface SlackTransport {
  botToken: string;
  signingSecret: string;
  /** Set: Socket Mode (no public URL needed). Unset: HTTP at /slack/events. */
  appToken?: string;
  /** Port of the HTTP receiver, or of the /healthz server in Socket Mode. */
  port: number;
  slackApiUrl?: string;
  /** Extra WebClient options (tests turn retries off). */
  clientOptions?: WebClientOptions;
  /** Set: GET /metrics is also served on this port, to requests bearing this token. */
  metricsToken?: string;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Liveness: the process answers HTTP. A load balancer restarts on this, never on readiness. */
const livenessRoute: CustomRoute = {
  path: '/livez',
  method: ['GET'],
  handler: (_req: IncomingMessage, res: ServerResponse) => sendJson(res, 200, { ok: true }),
};

/**
 * Readiness (/readyz, and /healthz as before): the stores answer and Slack accepts the bot token.
 * A bot whose token is refused acknowledges requests but can post nothing, so it is not ready.
 */
function readinessRoutes(deps: SlackDeps, client: () => WebClient, auth: SlackAuthWatch): CustomRoute[] {
  const handler = (_req: IncomingMessage, res: ServerResponse) => {
    Promise.all([deps.health().catch(() => ({ ok: false })), auth.state(client())]).then(([health, slack]) =>
      sendJson(res, health.ok && slack === 'ok' ? 200 : 503, {
        ...health,
        ok: health.ok && slack === 'ok',
        slack,
      }),
    );
  };
  return ['/readyz', '/healthz'].map((path) => ({ path, method: ['GET'], handler }));
}

/** /livez, /readyz and /healthz; /metrics too when a token guards it (MEMDOCTOR_METRICS_TOKEN). */
function routesOf(deps: SlackDeps, transport: SlackTransport, client: () => WebClient): CustomRoute[] {
  const scrape =
    deps.metrics && transport.metricsToken ? [metricsRoute(deps.metrics, transport.metricsToken)] : [];
  return [livenessRoute, ...readinessRoutes(deps, client, new SlackAuthWatch()), ...scrape];
}

/** Socket Mode when an app token is given; else the HTTP receiver (receiver.ts), which serves the routes too. */
function receiverOf(
  deps: SlackDeps,
  transport: SlackTransport,
  customRoutes: CustomRoute[],
  logger: ReturnType<typeof boltLogger>,
  acks: AckQueue,
) {
  return transport.appToken
    ? {
        socketMode: true,
        appToken: transport.appToken,
        installerOptions: { port: transport.port },
        signingSecret: transport.signingSecret,
        customRoutes,
      }
    : {
        receiver: createHttpReceiver({
          signingSecret: transport.signingSecret,
          port: transport.port,
          customRoutes,
          logger,
          acks,
          ...(deps.metrics ? { metrics: deps.metrics } : {}),
        }),
      };
}

/** Acknowledgements first, then the dedupe, then every listener; a listener's failure is logged by its code. */
function wire(app: App, deps: SlackDeps, transport: SlackTransport, acks: AckQueue): void {
  // Over HTTP the receiver times each answer; over Socket Mode the ack is timed as it is sent.
  const timeAcks = transport.appToken && deps.metrics ? { metrics: deps.metrics } : {};
  acknowledgeFirst(app as unknown as Parameters<typeof acknowledgeFirst>[0], { acks, ...timeAcks });
  app.use(dedupeEvents(deps));
  registerListeners(app, deps);
  app.error(async (error) => {
    const failure = explainFailure(error.original ?? error);
    deps.log.error({ code: failure.code, err: failure.detail ?? failure.message }, 'listener failed');
  });
}

/**
 * Builds the Bolt app: HTTP receiver (signatures verified by Bolt, future timestamps refused by
 * receiver.ts) or Socket Mode, pino for Bolt's logs, /livez and /readyz, acknowledgements first (ack-first.ts),
 * dedupe, then every listener. Starting it is the caller's move.
 */
export function createSlackApp(given: SlackDeps, transport: SlackTransport): App {
  const acks = given.acks ?? new AckQueue();
  const deps: SlackDeps = { ...given, acks };
  const secrets = [transport.botToken, transport.signingSecret, transport.appToken ?? ''];
  const logger = boltLogger(deps.log, secrets);
  let app: App | undefined;
  const customRoutes = routesOf(deps, transport, () => (app as App).client);
  app = new App({
    token: transport.botToken,
    logger,
    clientOptions: {
      ...(transport.slackApiUrl ? { slackApiUrl: transport.slackApiUrl } : {}),
      ...transport.clientOptions,
    },
    ...receiverOf(deps, transport, customRoutes, logger, acks),
  });
  wire(app, deps, transport, acks);
  return app;
}
