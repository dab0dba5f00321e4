// @ts-nocheck
import { createHmac } from 'node:crypto';

/** Slack's request signature: `v0=` + HMAC-SHA256(secret, `v0:${timestamp}:${body}`), hex. */
export function slackSignature(secret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

/** Sends requests to a Bolt app the way Slack does: signed, with Slack's content types. */
export class SlackSender {
  constructor(
    private readonly url: string,
    private readonly secret: string,
  ) {}

  async post(
    body: string,
    contentType: string,
    options: { timestamp?: number; secret?: string; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
    return fetch(this.url, {
      method: 'POST',
      headers: {
        'content-type': contentType,
        'x-slack-request-timestamp': String(timestamp),
        'x-slack-signature': slackSignature(options.secret ?? this.secret, timestamp, body),
        ...options.headers,
      },
      body,
    });
  }

  /** A slash command: a form body with Slack's fields. */
  command(fields: Record<string, string>, options?: Parameters<SlackSender['post']>[2]): Promise<Response> {
    return this.post(new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded', options);
  }

  /** An Events API delivery: JSON; retries carry X-Slack-Retry-Num. */
  event(envelope: unknown, retryNum?: number): Promise<Response> {
    const headers: Record<string, string> =
      retryNum === undefined
        ? {}
        : { 'x-slack-retry-num': String(retryNum), 'x-slack-retry-reason': 'http_timeout' };
    return this.post(JSON.stringify(envelope), 'application/json', { headers });
  }

  /** Interactivity (block_actions, view_submission): a form body with one `payload` field of JSON. */
  interaction(payload: unknown): Promise<Response> {
    return this.post(
      new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
      'application/x-www-form-urlencoded',
    );
  }
}
