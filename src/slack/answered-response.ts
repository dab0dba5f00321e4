import type { Logger as BoltLogger } from '@slack/bolt';

/**
 * What Bolt is given to answer a request the receiver has already acknowledged (receiver.ts): it
 * takes the status and body Bolt would have sent, sends nothing, and warns when that answer was
 * not the plain 200 already given (a listener that failed, or an ack that carried a body).
 */
export class AnsweredResponse {
  statusCode = 200;
  headersSent = false;

  constructor(private readonly logger: BoltLogger) {}

  writeHead(status: number): this {
    this.statusCode = status;
    this.headersSent = true;
    return this;
  }

  setHeader(): this {
    return this;
  }

  end(body?: unknown): this {
    this.headersSent = true;
    const hasBody = body !== undefined && body !== '';
    if (this.statusCode !== 200 || hasBody)
      this.logger.warn(
        `the app would have answered an acknowledged slash command with ${this.statusCode}${hasBody ? ' and a body' : ''}; Slack already has an empty 200`,
      );
    return this;
  }
}
