import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseForm } from 'node:querystring';
import {
  type Logger as BoltLogger,
  type CustomRoute,
  defaultBodyLimit,
  HTTPModuleFunctions,
  HTTPReceiver,
  isRawBodyError,
  verifySlackRequest,
} from '@slack/bolt';
import { type AckQueue, countingRequests } from './ack-first.ts';
import { AnsweredResponse } from './answered-response.ts';
import type { SlackMetrics } from './metrics.ts';

/**
 * Slack's replay window. Bolt refuses a request signed longer ago than this, but not one dated ahead
 * of the clock: a signed request captured with a future timestamp could be replayed until then.
 */
export const MAX_CLOCK_SKEW_SECONDS = 5 * 60;

export interface ReceiverOptions {
  signingSecret: string;
  port: number;
  customRoutes: CustomRoute[];
  logger: BoltLogger;
  /** The clock, in milliseconds (tests). */
  now?: () => number;
  /** Counts the requests still to be answered, so work after an ack waits for them (ack-first.ts). */
  acks?: AckQueue;
  /** Times every POST from its headers being read to its answer being handed to the kernel. */
  metrics?: SlackMetrics;
}

/** Seconds the request's signed timestamp lies ahead of `nowMs`, or undefined without a numeric one. */
function secondsAhead(req: IncomingMessage, nowMs: number): number | undefined {
  const header = req.headers['x-slack-request-timestamp'];
  const timestamp = typeof header === 'string' ? Number(header) : Number.NaN;
  return Number.isFinite(timestamp) ? timestamp - Math.floor(nowMs / 1000) : undefined;
}

/** The request's Slack signature headers, as Bolt's verifySlackRequest takes them. */
function signatureHeaders(req: IncomingMessage) {
  const header = (name: string) => {
    const value = req.headers[name];
    return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
  };
  return {
    'x-slack-signature': header('x-slack-signature'),
    'x-slack-request-timestamp': Number(header('x-slack-request-timestamp')),
  };
}

/** Slack's unsigned `ssl_check=1` probe of a slash command URL (only parsed when the signature failed). */
function isSslCheck(req: IncomingMessage, body: string): boolean {
  return (
    req.headers['content-type'] === 'application/x-www-form-urlencoded' && parseForm(body).ssl_check === '1'
  );
}

/**
 * Reads and verifies a POST before Bolt sees it, so Bolt (told not to verify) parses the body once.
 * Bolt's own verification parses a form body a second time only to look for `ssl_check`: two
 * query-string parses of a 40 KB paste, before the ack, for every slash command. Answers as Bolt
 * would: 413 past the body limit, 401 for a bad or stale signature, 200 and nothing more for an
 * unsigned ssl_check (which never reaches the app).
 */
async function verified(
  req: IncomingMessage,
  res: ServerResponse,
  signingSecret: string,
  logger: BoltLogger,
): Promise<string | undefined> {
  let raw: Buffer;
  try {
    raw = (await HTTPModuleFunctions.bufferIncomingMessage(req, defaultBodyLimit)).rawBody;
  } catch (error) {
    const tooLarge = isRawBodyError(error) && (error as { statusCode?: number }).statusCode === 413;
    if (tooLarge)
      logger.warn(`Request body exceeded the maximum allowed size (limit: ${defaultBodyLimit} bytes)`);
    res.writeHead(tooLarge ? 413 : 401).end();
    return undefined;
  }
  const body = raw.toString();
  try {
    verifySlackRequest({ signingSecret, body, headers: signatureHeaders(req) });
    return body;
  } catch (error) {
    if (isSslCheck(req, body)) {
      res.writeHead(200).end();
      return undefined;
    }
    logger.warn(`Failed to parse and verify the request data: ${(error as Error).message}`);
    res.writeHead(401).end();
    return undefined;
  }
}

/**
 * A signed slash command: a form body with a `command` field. Its values are percent-encoded, so
 * `&command=` cannot come from the pasted text; an interactivity form has only `payload`.
 */
export function isSlashCommandForm(req: IncomingMessage, body: string): boolean {
  return (
    req.headers['content-type'] === 'application/x-www-form-urlencoded' &&
    (body.startsWith('command=') || body.includes('&command='))
  );
}

/** Each POST timed from here until its answer is handed to the kernel. */
function timingAnswers(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  metrics: SlackMetrics,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (req.method === 'POST') res.once('finish', metrics.ackSeconds.startTimer());
    handle(req, res);
  };
}

/**
 * Bolt's HTTP receiver, refusing (401, as Bolt answers a stale one) any request dated more than
 * MAX_CLOCK_SKEW_SECONDS ahead, with each POST's signature verified before Bolt parses it.
 *
 * A signed slash command is acknowledged here, with an empty 200, as soon as its signature holds:
 * memdoctor never answers one with a body (its replies go to response_url), and Bolt's parsing,
 * authorization and dispatch cost about 3 ms for a 40 KB paste, which fifty commands arriving at
 * once would otherwise queue ahead of the last one's ack. Bolt then gets the request, with a
 * response that only records what it would have answered, once the other requests' acks are out
 * (AckQueue.settled). Events and interactivity still go to Bolt with the real response: a view
 * submission's ack may carry `response_action`, and url_verification its challenge.
 */
export function createHttpReceiver(options: ReceiverOptions): HTTPReceiver {
  const { logger, now = Date.now } = options;
  const receiver = new HTTPReceiver({
    signingSecret: options.signingSecret,
    // Verified here, before Bolt (see `verified`); every POST is checked, GET routes are not.
    signatureVerification: false,
    port: options.port,
    customRoutes: options.customRoutes,
    logger,
  });
  const bolt = receiver.requestListener;
  const checked = (req: IncomingMessage, res: ServerResponse) => {
    const ahead = secondsAhead(req, now());
    if (ahead !== undefined && ahead > MAX_CLOCK_SKEW_SECONDS) {
      logger.warn(`refused a request dated ${ahead} s ahead of this server's clock (more than 5 minutes)`);
      res.writeHead(401).end();
      return;
    }
    if (req.method !== 'POST') return bolt(req, res);
    void verified(req, res, options.signingSecret, logger).then((body) => {
      if (body === undefined) return;
      if (!isSlashCommandForm(req, body)) return bolt(req, res);
      res.writeHead(200).end();
      const handOver = () => bolt(req, new AnsweredResponse(logger) as unknown as ServerResponse);
      if (options.acks) void options.acks.settled().then(handOver);
      else handOver();
    });
  };
  const counted = options.acks ? countingRequests(checked, options.acks) : checked;
  receiver.requestListener = options.metrics ? timingAnswers(counted, options.metrics) : counted;
  return receiver;
}
