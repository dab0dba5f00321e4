import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { AlertIntake, IntakeOutcome, RoutedAlert } from '../incidents/types.ts';
import type { AlertsConfig } from './config.ts';
import { answer, BodyTooLargeError, readCapped } from './http.ts';
import type { AlertMetrics, RefusalReason } from './metrics.ts';
import type { Parsed } from './payloads/parsed.ts';
import {
  CertificateUnavailableError,
  configuredReceivers,
  PayloadInvalidError,
  type Receiver,
} from './receivers.ts';
import { type IdCheck, routeAlert } from './route.ts';
import type { SnsTransport } from './sns.ts';

/** What the receivers are handed by the composition root (src/serve.ts). */
export interface AlertReceiverDeps {
  config: AlertsConfig;
  intake: AlertIntake;
  metrics: AlertMetrics;
  logger: Logger;
  /** The use case's id checks (usecases/connectors.ts checkIdProblem over the configured connectors). */
  idCheck: IdCheck;
  /** SNS certificates and confirmations; tests trust a certificate they made. */
  sns: SnsTransport;
  now?: () => number;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

function refuse(
  res: ServerResponse,
  receiver: Receiver,
  deps: AlertReceiverDeps,
  status: number,
  reason: RefusalReason,
  message: string,
) {
  deps.metrics.refused.inc({ receiver: receiver.source, reason });
  deps.logger.warn({ receiver: receiver.source, status, reason }, `alert request refused: ${message}`);
  // The body may be unread: the connection is closed rather than drained.
  answer(res, status, { error: message }, true);
}

/** Routes each alert and hands the routed ones to the intake; resolves once every one is stored. */
async function store(parsed: Parsed, receiver: Receiver, deps: AlertReceiverDeps) {
  const routed: RoutedAlert[] = [];
  let unrouted = 0;
  for (const event of parsed.events) {
    const { routed: alert, refused } = routeAlert(event, deps.config, deps.idCheck);
    for (const r of refused)
      deps.logger.warn(
        { receiver: receiver.source, incident: event.incidentKey, connector: r.connector },
        `alert id not kept: ${r.reason}`,
      );
    if (alert) routed.push(alert);
    else unrouted += 1;
  }
  if (unrouted) deps.metrics.unrouted.inc({ receiver: receiver.source }, unrouted);
  const outcomes: IntakeOutcome[] = await Promise.all(routed.map((alert) => deps.intake.accept(alert)));
  for (const outcome of outcomes) deps.metrics.accepted.inc({ receiver: receiver.source, outcome });
  return {
    queued: outcomes.filter((o) => o === 'queued').length,
    duplicates: outcomes.filter((o) => o === 'duplicate').length,
    unrouted,
  };
}

/** The body, or undefined once the request was refused (credentials, size). */
async function authenticatedBody(
  receiver: Receiver,
  req: IncomingMessage,
  res: ServerResponse,
  deps: AlertReceiverDeps,
) {
  const authenticated = receiver.authenticate(req);
  if (authenticated === 'missing')
    return refuse(res, receiver, deps, 401, 'unauthenticated', 'credentials are missing');
  if (authenticated === 'wrong')
    return refuse(res, receiver, deps, 403, 'forbidden', 'credentials are wrong');
  try {
    return await readCapped(req, deps.config.maxBodyBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      return refuse(
        res,
        receiver,
        deps,
        413,
        'too_large',
        `the body is larger than ${deps.config.maxBodyBytes} bytes`,
      );
    throw error;
  }
}

/** Stores the alerts and answers 200 with what became of them, or 503 when the intake could not store them. */
async function storeAndAnswer(
  parsed: Parsed,
  receiver: Receiver,
  res: ServerResponse,
  deps: AlertReceiverDeps,
) {
  try {
    answer(res, 200, await store(parsed, receiver, deps));
  } catch (error) {
    deps.metrics.intakeFailures.inc({ receiver: receiver.source });
    deps.logger.error(
      { receiver: receiver.source, err: (error as Error).message },
      'alert intake failed; answered 503',
    );
    answer(res, 503, { error: 'the alert could not be stored; retry' });
  }
}

async function receive(
  receiver: Receiver,
  req: IncomingMessage,
  res: ServerResponse,
  deps: AlertReceiverDeps,
) {
  const raw = await authenticatedBody(receiver, req, res, deps);
  if (!raw) return;
  const receivedAt = new Date((deps.now ?? Date.now)()).toISOString();
  const verdict = await receiver.handle(req, raw, receivedAt);
  if ('refuse' in verdict)
    return refuse(res, receiver, deps, verdict.refuse, verdict.reason, verdict.message);
  if ('invalid' in verdict) return refuse(res, receiver, deps, 400, 'invalid', verdict.invalid);
  if ('answered' in verdict) return answer(res, verdict.answered, { message: verdict.message });
  if (verdict.parsed.ignored) {
    deps.metrics.ignored.inc({ receiver: receiver.source });
    return answer(res, 200, { ignored: verdict.parsed.ignored });
  }
  return storeAndAnswer(verdict.parsed, receiver, res, deps);
}

/** The receivers as one request handler; a path no configured receiver serves is passed to `next`. */
export function alertRequestHandler(deps: AlertReceiverDeps, next: Handler): Handler {
  const receivers = configuredReceivers(deps.config, {
    sns: deps.sns,
    now: deps.now ?? Date.now,
  });
  return (req, res) => {
    const receiver = receivers.get((req.url ?? '').split('?')[0] ?? '');
    if (!receiver) return next(req, res);
    if (req.method !== 'POST') return answer(res, 405, { error: 'POST only' }, true);
    receive(receiver, req, res, deps).catch((error: unknown) => {
      if (error instanceof PayloadInvalidError)
        return refuse(res, receiver, deps, 400, 'invalid', error.message);
      if (error instanceof CertificateUnavailableError) {
        deps.logger.error(
          { receiver: receiver.source, err: error.message },
          'SNS certificate unavailable; answered 503',
        );
        return answer(res, 503, { error: error.message });
      }
      deps.logger.error(
        { receiver: receiver.source, err: (error as Error).message },
        'alert receiver failed',
      );
      if (!res.headersSent) answer(res, 500, { error: 'the alert receiver failed' }, true);
    });
  };
}

/**
 * Serves the configured receivers on `server` (serve's HTTP server) ahead of what it already serves:
 * every other request goes to the listeners it had.
 */
export function mountAlertReceivers(server: Server, deps: AlertReceiverDeps): void {
  const previous = server.listeners('request') as Handler[];
  const rest: Handler = (req, res) => {
    for (const listener of previous) listener.call(server, req, res);
  };
  server.removeAllListeners('request');
  server.on('request', alertRequestHandler(deps, rest));
}
