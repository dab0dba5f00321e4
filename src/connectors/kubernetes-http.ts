import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { HttpLibrary, RequestContext, ResponseContext } from '@kubernetes/client-node';
import {
  type Deadline,
  decoded,
  isHtml,
  MAX_REDIRECTS,
  readCapped,
  redirectWithin,
  refuseUnlikeJson,
} from './bounded.ts';
import { FetchFault } from './fetch-faults.ts';

type Library = typeof import('@kubernetes/client-node');

/** What the transport saw of one read: the path actually sent and the raw answer (decompressed). */
export interface Seen {
  path?: string;
  body?: string;
}

export interface KubeLimits {
  maxBytes: number;
  deadline: Deadline;
  /** The cluster's server from the kubeconfig (or the in-cluster address): every request stays under it. */
  server: URL;
}

/** One GET as Node sends it, with the library's agent: it carries the cluster's CA, client certificate or proxy. */
function get(url: URL, context: RequestContext, signal: AbortSignal): Promise<IncomingMessage> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers = { ...context.getHeaders(), 'accept-encoding': 'gzip' };
  return new Promise((resolve, reject) => {
    const req = send(url, { method: 'GET', headers, agent: context.getAgent(), signal }, resolve);
    req.on('error', reject);
    req.end();
  });
}

/** Reads the answer to `context`'s request, following redirects only within the server's base. */
async function answer(context: RequestContext, limits: KubeLimits, seen: Seen) {
  const own = context.getSignal();
  const signal = own ? AbortSignal.any([limits.deadline.signal, own]) : limits.deadline.signal;
  let url = new URL(context.getUrl());
  redirectWithin(url.href, url, limits.server);
  for (let hop = 0; ; hop++) {
    seen.path = `${url.pathname}${url.search}`;
    const response = await get(url, context, signal).catch((error) => {
      throw limits.deadline.signal.aborted
        ? new FetchFault({ kind: 'timeout', ms: limits.deadline.ms })
        : error;
    });
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && hop < MAX_REDIRECTS) {
      response.destroy();
      url = redirectWithin(response.headers.location, url, limits.server);
      continue;
    }
    const encoding = response.headers['content-encoding'];
    const body = await readCapped(decoded(response, encoding), limits.maxBytes, limits.deadline, !!encoding);
    return { status, headers: response.headers, text: body.toString('utf8') };
  }
}

/**
 * The Kubernetes client's transport (its `httpApi` extension point, in place of node-fetch): the
 * fetch discipline of bounded.ts, the raw answer kept in `seen` (the parser reads what a paste
 * holds), and a JSON answer checked for an HTML page and depth before the library parses it.
 */
export function boundedKubeHttp(lib: Library, limits: KubeLimits, seen: Seen): HttpLibrary {
  const send = async (context: RequestContext): Promise<ResponseContext> => {
    const { status, headers, text } = await answer(context, limits, seen);
    const type = String(headers['content-type'] ?? '');
    if (status >= 200 && status < 300) {
      if (/json/i.test(type)) refuseUnlikeJson(text, type);
      else if (isHtml(text, type)) throw new FetchFault({ kind: 'html' });
    }
    seen.body = text;
    const flat: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers))
      if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
    // The body is decompressed: the library must not read the encoding and try again.
    delete flat['content-encoding'];
    const body = { text: async () => text, binary: async () => Buffer.from(text) };
    return new lib.ResponseContext(status, flat, body);
  };
  return { send: (context) => new lib.Observable(send(context)) };
}
