import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach } from 'vitest';
import { z } from 'zod';

/**
 * The Responses API request body memdoctor must send: a strict json_schema text format, user
 * input as messages, no stored response. Anything else and the fake answers 400, like a server
 * that does not understand the request.
 */
export const ResponsesRequestSchema = z.strictObject({
  model: z.string().min(1),
  instructions: z.string().min(1),
  input: z
    .array(z.strictObject({ role: z.enum(['user', 'system', 'developer']), content: z.string() }))
    .min(1),
  text: z.strictObject({
    format: z.strictObject({
      type: z.literal('json_schema'),
      name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/),
      strict: z.literal(true),
      schema: z.looseObject({
        type: z.literal('object'),
        additionalProperties: z.literal(false),
        required: z.array(z.string()),
        properties: z.record(z.string(), z.looseObject({ enum: z.array(z.string()).optional() })),
      }),
    }),
  }),
  max_output_tokens: z.number().int().positive(),
  store: z.literal(false),
});
export type ResponsesRequest = z.infer<typeof ResponsesRequestSchema>;

/** One recorded request: what the real SDK sent on the wire. */
export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  raw: string;
  /** The body, when it was a valid Responses API request (else the fake answered 400). */
  body: ResponsesRequest | undefined;
}

/** What the fake answers to one request. */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Wait this long before answering (to trip the client's timeout). */
  delayMs?: number;
}

let counter = 0;

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** A completed Responses API reply whose only output text is `text` (the real wire shape). */
export function responseText(text: string): Reply {
  counter++;
  return {
    body: {
      id: `resp_fake_${counter}`,
      object: 'response',
      created_at: 1_764_400_000,
      status: 'completed',
      model: 'fake-model',
      output: [
        {
          type: 'message',
          id: `msg_fake_${counter}`,
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text, annotations: [] }],
        },
      ],
      usage: { input_tokens: 100, output_tokens: 50, total_tokens: 150 },
    },
  };
}

/** A completed reply carrying `value` as the structured JSON answer. */
export function responseJson(value: unknown): Reply {
  return responseText(JSON.stringify(value));
}

/** An API error in the OpenAI error envelope. */
export function apiError(status: number, message: string, headers: Record<string, string> = {}): Reply {
  return { status, headers, body: { error: { message, type: 'server_error', param: null, code: null } } };
}

/**
 * A local stand-in for the OpenAI API on 127.0.0.1 (random port). It records every request body
 * and answers POST /responses from a queue of replies.
 */
export class FakeOpenAI {
  readonly requests: Recorded[] = [];
  private replies: Reply[] = [];
  private last: Reply | undefined;
  private server: Server | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();

  /** Queues replies for the next requests, in order. */
  reply(...replies: Reply[]): void {
    this.replies.push(...replies);
  }

  /** Forgets recorded requests and queued replies (between tests sharing one server). */
  reset(): void {
    this.requests.length = 0;
    this.replies = [];
    this.last = undefined;
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/v1`;
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const parsed = ResponsesRequestSchema.safeParse(safeJson(raw));
    const body = parsed.success ? parsed.data : undefined;
    this.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, raw, body });
    if (req.method !== 'POST' || req.url !== '/v1/responses') {
      this.send(res, apiError(404, `no route ${req.method} ${req.url}`));
      return;
    }
    if (!parsed.success) {
      this.send(res, apiError(400, z.prettifyError(parsed.error)));
      return;
    }
    // Queued replies are used once each, in order; when the queue is empty the last one repeats.
    const reply = this.replies.shift() ?? this.last;
    this.last = reply;
    if (!reply) {
      this.send(res, apiError(500, 'the test queued no reply'));
      return;
    }
    if (reply.delayMs) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        if (!res.destroyed) this.send(res, reply);
      }, reply.delayMs);
      this.timers.add(timer);
      return;
    }
    this.send(res, reply);
  }

  private send(res: ServerResponse, reply: Reply): void {
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
    res.end(JSON.stringify(reply.body ?? {}));
  }
}

/** A fresh fake server for every test of the suite that calls this, closed after each test. */
export function fakeOpenAIPerTest(): { readonly fake: FakeOpenAI; readonly baseURL: string } {
  const server = { fake: new FakeOpenAI(), baseURL: '' };
  beforeEach(async () => {
    server.fake = new FakeOpenAI();
    server.baseURL = await server.fake.start();
  });
  afterEach(async () => {
    await server.fake.close();
  });
  return server;
}
