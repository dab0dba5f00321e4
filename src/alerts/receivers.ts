import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AlertSource } from '../incidents/types.ts';
import { type AlertsConfig, type BasicCredentials, RECEIVER_PATHS } from './config.ts';
import { type Authentication, basicOf, bearerOf, sameSecret } from './http.ts';
import type { RefusalReason } from './metrics.ts';
import { parseAlertmanager } from './payloads/alertmanager.ts';
import { parseEventBridge } from './payloads/eventbridge.ts';
import { parseGcp } from './payloads/gcp.ts';
import { pagerDutyOccurredAt, parsePagerDuty } from './payloads/pagerduty.ts';
import { type Parsed, PayloadInvalidError } from './payloads/parsed.ts';
import {
  CertificateUnavailableError,
  confirmationUrl,
  parseSnsEnvelope,
  type SnsMessage,
  type SnsTransport,
  SnsVerifier,
} from './sns.ts';

/** What a receiver made of an authenticated request. */
export type Verdict =
  | { refuse: 401 | 403; reason: RefusalReason; message: string }
  | { invalid: string }
  | { parsed: Parsed }
  /** Answered without alerts (an SNS subscription handshake). */
  | { answered: number; message: string };

/** One sender's endpoint: credentials in headers checked before any byte of the body is read, then the body. */
export interface Receiver {
  source: AlertSource;
  path: string;
  authenticate(req: IncomingMessage): Authentication;
  handle(req: IncomingMessage, raw: Buffer, receivedAt: string): Promise<Verdict>;
}

function json(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw new PayloadInvalidError(`the body is not JSON (${(error as Error).message})`);
  }
}

function basicMatches(req: IncomingMessage, expected: BasicCredentials | undefined): Authentication {
  const given = basicOf(req);
  if (!given || !expected) return 'missing';
  const user = sameSecret(given.username, expected.username);
  return sameSecret(given.password, expected.password) && user ? 'ok' : 'wrong';
}

/**
 * A token (Alertmanager's bearer, Cloud Monitoring's `?token=`) or basic auth, either configured one
 * being enough: `given` is the token the request carries, if any.
 */
function tokenOrBasic(
  req: IncomingMessage,
  given: string | undefined,
  expected: string | undefined,
  basic: BasicCredentials | undefined,
): Authentication {
  if (given !== undefined && expected !== undefined) return sameSecret(given, expected) ? 'ok' : 'wrong';
  const viaBasic = basicMatches(req, basic);
  if (viaBasic !== 'missing') return viaBasic;
  return given !== undefined || req.headers.authorization ? 'wrong' : 'missing';
}

function alertmanager(
  settings: NonNullable<AlertsConfig['receivers']['alertmanager']>,
  path: string,
): Receiver {
  return {
    source: 'alertmanager',
    path,
    authenticate: (req) => tokenOrBasic(req, bearerOf(req), settings.bearer, settings.basic),
    handle: async (_req, raw, receivedAt) => ({ parsed: parseAlertmanager(json(raw), receivedAt) }),
  };
}

/** The `v1=` signatures of X-PagerDuty-Signature (several while a secret is rotated). */
function pagerDutySignatures(req: IncomingMessage): string[] {
  const header = req.headers['x-pagerduty-signature'];
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.startsWith('v1='));
}

/** True when one of the header's v1 signatures is the HMAC-SHA256 of the raw body under one of the secrets. */
export function pagerDutySigned(
  raw: Buffer,
  signatures: readonly string[],
  secrets: readonly string[],
): boolean {
  const expected = secrets.map((secret) => `v1=${createHmac('sha256', secret).update(raw).digest('hex')}`);
  return signatures.some((given) => expected.some((mine) => sameSecret(given, mine)));
}

const FUTURE_SKEW_MS = 5 * 60 * 1000;

function stale(at: number | undefined, maxAgeSeconds: number, now: number): boolean {
  return at === undefined || Number.isNaN(at) || now - at > maxAgeSeconds * 1000 || at - now > FUTURE_SKEW_MS;
}

function pagerduty(
  settings: NonNullable<AlertsConfig['receivers']['pagerduty']>,
  path: string,
  now: () => number,
): Receiver {
  return {
    source: 'pagerduty',
    path,
    authenticate: (req) => (pagerDutySignatures(req).length > 0 ? 'ok' : 'missing'),
    handle: async (req, raw, receivedAt) => {
      if (!pagerDutySigned(raw, pagerDutySignatures(req), settings.secrets))
        return { refuse: 403, reason: 'forbidden', message: 'X-PagerDuty-Signature does not match the body' };
      const body = json(raw);
      // The signed body carries when the event occurred: a captured delivery replayed later is refused.
      if (stale(pagerDutyOccurredAt(body), settings.maxAgeSeconds, now()))
        return {
          refuse: 403,
          reason: 'stale',
          message: `event.occurred_at is missing or outside the replay window`,
        };
      return { parsed: parsePagerDuty(body, receivedAt) };
    },
  };
}

/** Confirms a subscription with a URL built from the configured topic; a failure is 503 so SNS sends it again. */
async function confirmSubscription(message: SnsMessage, transport: SnsTransport): Promise<Verdict> {
  const url = confirmationUrl(message.TopicArn, message.Token ?? '');
  if (!url) return { invalid: 'the subscription confirmation has no usable Token' };
  try {
    await transport.confirm(url);
  } catch (error) {
    return { answered: 503, message: `the subscription could not be confirmed: ${(error as Error).message}` };
  }
  return { answered: 200, message: `subscription to ${message.TopicArn} confirmed` };
}

/** The SNS receiver: the configured topics only, signatures verified, subscriptions confirmed by memdoctor's own URL. */
function sns(
  settings: NonNullable<AlertsConfig['receivers']['sns']>,
  path: string,
  transport: SnsTransport,
  now: () => number,
): Receiver {
  const verifier = new SnsVerifier(transport, now);
  return {
    source: 'sns',
    path,
    // SNS signs inside the body: nothing to check before it is read.
    authenticate: () => 'ok',
    handle: async (req, raw, receivedAt) => {
      const message = parseSnsEnvelope(json(raw));
      const headerTopic = req.headers['x-amz-sns-topic-arn'];
      if (
        !settings.topics.includes(message.TopicArn) ||
        (headerTopic !== undefined && headerTopic !== message.TopicArn)
      )
        return {
          refuse: 403,
          reason: 'forbidden',
          message: `topic ${message.TopicArn} is not one MEMDOCTOR_ALERTS accepts`,
        };
      if (!(await verifier.verifies(message)))
        return { refuse: 403, reason: 'forbidden', message: 'the SNS signature does not verify' };
      if (stale(Date.parse(message.Timestamp), settings.maxAgeSeconds, now()))
        return { refuse: 403, reason: 'stale', message: 'Timestamp is outside the replay window' };
      if (message.Type === 'UnsubscribeConfirmation') return { answered: 200, message: 'unsubscribed' };
      if (message.Type === 'SubscriptionConfirmation') return confirmSubscription(message, transport);
      return { parsed: parseEventBridge(message.Message, message.MessageId, receivedAt) };
    },
  };
}

function gcp(settings: NonNullable<AlertsConfig['receivers']['gcp']>, path: string): Receiver {
  const tokenOf = (req: IncomingMessage) =>
    new URL(req.url ?? '/', 'http://x').searchParams.get('token') ?? undefined;
  return {
    source: 'gcp-monitoring',
    path,
    authenticate: (req) => tokenOrBasic(req, tokenOf(req), settings.token, settings.basic),
    handle: async (_req, raw, receivedAt) => ({ parsed: parseGcp(json(raw), receivedAt) }),
  };
}

export { CertificateUnavailableError, PayloadInvalidError };

/** The receivers the routing file configures, by path; an unconfigured one is not served. */
export function configuredReceivers(
  config: AlertsConfig,
  options: { sns: SnsTransport; now: () => number },
): Map<string, Receiver> {
  const { alertmanager: am, pagerduty: pd, sns: topics, gcp: google } = config.receivers;
  const list: Receiver[] = [
    ...(am ? [alertmanager(am, RECEIVER_PATHS.alertmanager)] : []),
    ...(pd ? [pagerduty(pd, RECEIVER_PATHS.pagerduty, options.now)] : []),
    ...(topics ? [sns(topics, RECEIVER_PATHS.sns, options.sns, options.now)] : []),
    ...(google ? [gcp(google, RECEIVER_PATHS['gcp-monitoring'])] : []),
  ];
  return new Map(list.map((r) => [r.path, r]));
}
