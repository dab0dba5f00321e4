import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySigV4 } from './sigv4.ts';

/** The AWS documentation's example key pair (General Reference, "Signature Version 4" examples). */
export const TEST_CREDENTIALS = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
};

export interface AwsAnswer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait this long before answering (timeouts, one-at-a-time checks). */
  delayMs?: number;
  /** Writes the answer itself instead (an endless body, a gzip bomb: test/connectors/fakes/hostile.ts). */
  respond?: (res: ServerResponse) => void;
}

/** One operation of a JSON-protocol AWS API, as its reference and Smithy model publish it. */
export interface AwsOperation {
  /** X-Amz-Target: the service shape's name and the operation's, e.g. AWSGlue.GetJobRun. */
  target: string;
  /** The SigV4 signing name: glue, monitoring (CloudWatch), logs. */
  service: string;
  protocol: '1.0' | '1.1';
  /** Input members the API reference marks "Required: Yes". */
  required: readonly (string | readonly string[])[];
  /** Request headers the protocol adds, e.g. x-amzn-query-mode for an awsQueryCompatible service. */
  headers?: Readonly<Record<string, string>>;
  answer(input: Record<string, unknown>): AwsAnswer;
}

/**
 * An error as the awsJson protocols serialize it (Smithy aws-json.rst.template, "Operation error
 * serialization"): HTTP 400 unless given, the X-Amzn-Errortype header and the body's __type naming it.
 */
export function awsError(type: string, message?: string, extra: Omit<AwsAnswer, 'body'> = {}): AwsAnswer {
  return {
    status: extra.status ?? 400,
    headers: {
      'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazonaws.glue/`,
      ...extra.headers,
    },
    body: { __type: type, ...(message !== undefined ? { Message: message } : {}) },
    ...(extra.delayMs ? { delayMs: extra.delayMs } : {}),
  };
}

export interface AwsSeen {
  target: string;
  input: Record<string, unknown>;
  headers: IncomingMessage['headers'];
}

function missing(input: Record<string, unknown>, required: AwsOperation['required']): string[] {
  const present = (k: string) => input[k] !== undefined && input[k] !== '';
  return required
    .filter((r) => (typeof r === 'string' ? !present(r) : !r.some(present)))
    .map((r) => (typeof r === 'string' ? r : r.join(' or ')));
}

/**
 * A loopback server that speaks the AWS JSON protocols as the real endpoints do, for the real SDK
 * clients. Every request is checked against the published shape (POST /, the target header, the
 * protocol's content type, the required members, a SigV4 signature over the request made with the
 * test key for the configured region and the operation's service); a request that fails is answered
 * 400 and recorded in `violations`, which every test expects to stay empty.
 */
export class AwsFake {
  readonly seen: AwsSeen[] = [];
  readonly violations: string[] = [];
  maxInFlight = 0;
  private inFlight = 0;
  private readonly overrides = new Map<string, AwsAnswer>();
  private server?: Server;

  constructor(
    private readonly operations: readonly AwsOperation[],
    private readonly region: string,
  ) {}

  /** Answers every call of the operation (by X-Amz-Target) with this instead (faults). */
  override(target: string, answer: AwsAnswer): void {
    this.overrides.set(target, answer);
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** The operation the request is for, or why it is outside the API's published shape. */
  private check(
    req: IncomingMessage,
    body: string,
  ): { op: AwsOperation; input: Record<string, unknown> } | string {
    if (req.method !== 'POST' || req.url !== '/')
      return `${req.method} ${req.url}: the JSON protocols POST to /`;
    const target = req.headers['x-amz-target'];
    const op = this.operations.find((o) => o.target === target);
    if (!op) return `X-Amz-Target ${target}: no such operation here`;
    if (req.headers['content-type'] !== `application/x-amz-json-${op.protocol}`)
      return `${op.target}: Content-Type ${req.headers['content-type']}, not application/x-amz-json-${op.protocol}`;
    for (const [name, value] of Object.entries(op.headers ?? {}))
      if (req.headers[name] !== value) return `${op.target}: header ${name} is not ${value}`;
    const signed = verifySigV4(
      { method: 'POST', path: '/', headers: req.headers, body },
      TEST_CREDENTIALS.secretAccessKey,
    );
    if (typeof signed === 'string') return `${op.target}: ${signed}`;
    if (
      signed.region !== this.region ||
      signed.service !== op.service ||
      signed.accessKeyId !== TEST_CREDENTIALS.accessKeyId
    )
      return `${op.target}: signed for ${signed.accessKeyId} ${signed.region}/${signed.service}, not ${this.region}/${op.service}`;
    const input = JSON.parse(body || '{}') as Record<string, unknown>;
    const absent = missing(input, op.required);
    return absent.length ? `${op.target}: required ${absent.join(', ')} missing` : { op, input };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      const found = this.check(req, body);
      if (typeof found === 'string') {
        this.violations.push(found);
        this.send(res, '1.1', awsError('ValidationException', found));
        return;
      }
      this.seen.push({ target: found.op.target, input: found.input, headers: req.headers });
      const answer = this.overrides.get(found.op.target) ?? found.op.answer(found.input);
      if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
      if (res.destroyed) return;
      if (answer.respond) answer.respond(res);
      else this.send(res, found.op.protocol, answer);
    } finally {
      this.inFlight--;
    }
  }

  private send(res: ServerResponse, protocol: '1.0' | '1.1', answer: AwsAnswer): void {
    const text =
      answer.body === undefined
        ? ''
        : typeof answer.body === 'string'
          ? answer.body
          : JSON.stringify(answer.body);
    res.writeHead(answer.status ?? 200, {
      'content-type': `application/x-amz-json-${protocol}`,
      'x-amzn-requestid': '8b148762-2a85-4b0a-bfb7-499ab470356e',
      ...answer.headers,
    });
    res.end(text);
  }
}
