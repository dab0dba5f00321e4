import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Logger as BoltLogger, type CustomRoute, HTTPReceiver } from '@slack/bolt';

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
}

/** Seconds the request's signed timestamp lies ahead of `nowMs`, or undefined without a numeric one. */
function secondsAhead(req: IncomingMessage, nowMs: number): number | undefined {
  const header = req.headers['x-slack-request-timestamp'];
  const timestamp = typeof header === 'string' ? Number(header) : Number.NaN;
  return Number.isFinite(timestamp) ? timestamp - Math.floor(nowMs / 1000) : undefined;
}

/**
 * Bolt's HTTP receiver, refusing (401, as Bolt answers a stale one) any request dated more than
 * MAX_CLOCK_SKEW_SECONDS ahead. Requests without the header go on to Bolt, which refuses them.
 */
export function createHttpReceiver(options: ReceiverOptions): HTTPReceiver {
  const { logger, now = Date.now } = options;
  const receiver = new HTTPReceiver({
    signingSecret: options.signingSecret,
    port: options.port,
    customRoutes: options.customRoutes,
    logger,
  });
  const handle = receiver.requestListener;
  receiver.requestListener = (req: IncomingMessage, res: ServerResponse) => {
    const ahead = secondsAhead(req, now());
    if (ahead !== undefined && ahead > MAX_CLOCK_SKEW_SECONDS) {
      logger.warn(`refused a request dated ${ahead} s ahead of this server's clock (more than 5 minutes)`);
      res.writeHead(401).end();
      return;
    }
    handle(req, res);
  };
  return receiver;
}
