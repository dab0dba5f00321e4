import {
  type Deadline,
  isHtml,
  MAX_REDIRECTS,
  readCapped,
  redirectWithin,
  refuseUnlikeJson,
} from './bounded.ts';
import { FetchFault } from './fetch-faults.ts';

/** What one GET may do: where it may go, how much it may read, until when. */
export interface FetchLimits {
  /** The configured base: the request and any redirect it follows stay on its origin and under its path. */
  base: URL;
  maxBytes: number;
  deadline: Deadline;
}

export interface BoundedAnswer {
  status: number;
  headers: Headers;
  /** The body as text, decompressed (fetch inflates gzip, deflate and br as it is read). */
  text: string;
}

const isRedirect = (status: number) => status >= 300 && status < 400;

/**
 * A GET through Node's fetch under the fetch discipline (bounded.ts): redirects followed by hand and
 * only within the base (fetch's own following would carry the credentials elsewhere), the body
 * counted after decompression and cut at maxBytes while read, the deadline over all of it, and a
 * successful answer refused when it is an HTML page, or JSON nested too deep.
 */
export async function boundedGet(
  start: URL,
  headers: ConstructorParameters<typeof Headers>[0],
  limits: FetchLimits,
  signal?: AbortSignal | null,
): Promise<BoundedAnswer> {
  const { deadline } = limits;
  const aborts = AbortSignal.any(signal ? [deadline.signal, signal] : [deadline.signal]);
  let url = redirectWithin(start.href, start, limits.base);
  for (let hop = 0; ; hop++) {
    const response = await fetch(url, { headers, redirect: 'manual', signal: aborts }).catch((error) => {
      throw deadline.signal.aborted ? new FetchFault({ kind: 'timeout', ms: deadline.ms }) : error;
    });
    if (isRedirect(response.status) && hop < MAX_REDIRECTS) {
      await response.body?.cancel();
      url = redirectWithin(response.headers.get('location'), url, limits.base);
      continue;
    }
    const encoded = Boolean(response.headers.get('content-encoding'));
    const text = (await readCapped(response.body, limits.maxBytes, deadline, encoded)).toString('utf8');
    const type = response.headers.get('content-type');
    if (response.ok && /json/i.test(type ?? '')) refuseUnlikeJson(text, type);
    else if (response.ok && isHtml(text, type)) throw new FetchFault({ kind: 'html' });
    return { status: response.status, headers: response.headers, text };
  }
}

/** Statuses whose Response may not carry a body. */
const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * gaxios' transport hook (its `fetchImplementation` option, which googleapis passes through): the
 * same bounded GET, answered as a Response holding the body already read and decompressed.
 */
export function gaxiosFetch(limits: () => FetchLimits) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const got = await boundedGet(url, init?.headers ?? {}, limits(), init?.signal);
    const headers = new Headers(got.headers);
    headers.delete('content-encoding');
    headers.delete('content-length');
    return new Response(NO_BODY.has(got.status) ? null : got.text, { status: got.status, headers });
  };
}
