import type { Readable } from 'node:stream';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { HttpHandlerOptions, HttpResponse } from '@smithy/types';

/** The request the SDK hands its handler, as NodeHttpHandler takes it. */
type HttpRequest = Parameters<NodeHttpHandler['handle']>[0];

import { currentDeadline, readCapped, refuseUnlikeJson } from './bounded.ts';
import { FetchFault } from './fetch-faults.ts';

export interface AwsLimits {
  maxBytes: number;
  timeoutMs: number;
}

/** What an answer's headers say about its body before it is read. */
function refuseByHeaders(response: HttpResponse): void {
  const header = (name: string) =>
    Object.entries(response.headers).find(([key]) => key.toLowerCase() === name)?.[1];
  // The SDK never asks for a compressed answer (no Accept-Encoding), and reads none.
  const encoding = header('content-encoding')?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') throw new FetchFault({ kind: 'encoding', encoding });
  // An AWS endpoint never redirects a JSON-protocol call; something else answered.
  const status = response.statusCode;
  if (status >= 300 && status < 400)
    throw new FetchFault({ kind: 'redirect', to: redirectOrigin(header('location')) });
}

function redirectOrigin(location: string | undefined): string | undefined {
  return location && URL.canParse(location) ? new URL(location).origin : undefined;
}

/**
 * The AWS SDK clients' request handler (their `requestHandler` extension point): Smithy's
 * NodeHttpHandler sends, then the body is read here under the fetch discipline (bounded.ts) before
 * the SDK sees it: cut at maxBytes while reading, within the answer's deadline, refused when it is
 * an HTML page or nests too deep, and handed to the SDK as bytes. Without it the SDK collects
 * whatever it is sent, and a deadline that passes mid-body surfaces as a deserialisation error.
 */
export class BoundedAwsHandler {
  readonly metadata = { handlerProtocol: 'http/1.1' };
  private readonly inner: NodeHttpHandler;

  constructor(private readonly limits: AwsLimits) {
    this.inner = new NodeHttpHandler({ connectionTimeout: limits.timeoutMs });
  }

  async handle(request: HttpRequest, options: HttpHandlerOptions = {}): Promise<{ response: HttpResponse }> {
    const deadline = currentDeadline(this.limits.timeoutMs);
    const abortSignal = options.abortSignal
      ? AbortSignal.any([deadline.signal, options.abortSignal as AbortSignal])
      : deadline.signal;
    const { response } = await this.inner.handle(request, { ...options, abortSignal }).catch((error) => {
      throw deadline.signal.aborted ? new FetchFault({ kind: 'timeout', ms: deadline.ms }) : error;
    });
    const stream = response.body as Readable;
    try {
      refuseByHeaders(response);
    } catch (fault) {
      stream.destroy();
      throw fault;
    }
    const stop = () => stream.destroy();
    deadline.signal.addEventListener('abort', stop, { once: true });
    try {
      const body = await readCapped(stream, this.limits.maxBytes, deadline);
      const text = body.toString('utf8');
      refuseUnlikeJson(text, String(response.headers['content-type'] ?? ''));
      response.body = body;
      return { response };
    } finally {
      deadline.signal.removeEventListener('abort', stop);
    }
  }

  updateHttpClientConfig(key: never, value: never): void {
    this.inner.updateHttpClientConfig(key, value);
  }

  httpHandlerConfigs(): ReturnType<NodeHttpHandler['httpHandlerConfigs']> {
    return this.inner.httpHandlerConfigs();
  }

  destroy(): void {
    this.inner.destroy();
  }
}
