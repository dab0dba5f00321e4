import { AsyncLocalStorage } from 'node:async_hooks';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, constants as zlib } from 'node:zlib';
import { FetchFault } from './fetch-faults.ts';

/**
 * The fetch discipline every connector's transport keeps, whatever client library it plugs into:
 * one deadline for the whole answer (retries and pages included), a byte cap counted while reading
 * and after decompression, redirects only within the configured base, and JSON checked for an HTML
 * page and for depth before anything parses it. Faults are FetchFaults (fetch-faults.ts).
 */

/** Far deeper than any answer of the APIs read (the deepest real answer in the fixtures, a pod, nests 11 levels). */
export const MAX_JSON_DEPTH = 128;

/** The deadline of one answer: every request, retry and page of it stops when it passes. */
export interface Deadline {
  readonly ms: number;
  readonly signal: AbortSignal;
  /** Milliseconds left, at least 1 (a library given 0 may take it as "no timeout"). */
  remaining(): number;
}

function startDeadline(ms: number): Deadline {
  const end = Date.now() + ms;
  return { ms, signal: AbortSignal.timeout(ms), remaining: () => Math.max(1, end - Date.now()) };
}

const answering = new AsyncLocalStorage<Deadline>();

/** The deadline of the answer being fetched; a fresh one of `ms` outside any (a lone call). */
export function currentDeadline(ms: number): Deadline {
  return answering.getStore() ?? startDeadline(ms);
}

/**
 * Runs `task` as one answer with a deadline of `ms`: every call inside reads it (currentDeadline),
 * so retries and pages share it rather than each starting its own.
 */
export function withinDeadline<T>(ms: number, task: (deadline: Deadline) => Promise<T>): Promise<T> {
  const deadline = startDeadline(ms);
  return answering.run(deadline, () => task(deadline));
}

/**
 * `work`, or a timeout fault when the deadline passes first, whatever the work waits on (a retry's
 * back-off, a credentials lookup): the caller stops waiting at once; the transport aborts the request.
 */
export function beforeDeadline<T>(work: Promise<T>, deadline: Deadline): Promise<T> {
  let onAbort = () => {};
  const expired = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(new FetchFault({ kind: 'timeout', ms: deadline.ms }));
    if (deadline.signal.aborted) onAbort();
    else deadline.signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, expired]).finally(() => deadline.signal.removeEventListener('abort', onAbort));
}

/** The body, decompressed as its Content-Encoding says: a gzip bomb is inflated only as far as it is read. */
export function decoded(body: Readable, encoding: string | undefined): Readable {
  const name = (encoding ?? 'identity').trim().toLowerCase();
  // Truncated streams end the read with an error, not a silent cut: finishFlush stays the default.
  const opts = { chunkSize: 64 * 1024 };
  const decoder =
    name === 'gzip' || name === 'x-gzip'
      ? createGunzip(opts)
      : name === 'deflate'
        ? createInflate(opts)
        : name === 'br'
          ? createBrotliDecompress({ ...opts, params: { [zlib.BROTLI_PARAM_SIZE_HINT]: 0 } })
          : undefined;
  if (name === 'identity' || name === '') return body;
  if (!decoder) {
    body.destroy();
    throw new FetchFault({ kind: 'encoding', encoding: name });
  }
  body.on('error', (e) => decoder.destroy(e));
  return body.pipe(decoder);
}

/**
 * Reads a body chunk by chunk: more than `maxBytes` ends the read at once (the rest is never
 * buffered), and so does the deadline. `decoded` says the count is after decompression, for the message.
 */
export async function readCapped(
  body: AsyncIterable<Uint8Array> | null | undefined,
  maxBytes: number,
  deadline: Deadline,
  decoded = false,
): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const stop = (error: FetchFault) => {
    (body as { destroy?: (e?: Error) => void } | null)?.destroy?.();
    return error;
  };
  try {
    for await (const chunk of body ?? []) {
      if (deadline.signal.aborted) throw stop(new FetchFault({ kind: 'timeout', ms: deadline.ms }));
      size += chunk.byteLength;
      if (size > maxBytes) throw stop(new FetchFault({ kind: 'too-large', maxBytes, decoded }));
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof FetchFault) throw error;
    // The stream ended because the deadline aborted it (the transport destroys it with an AbortError).
    if (deadline.signal.aborted) throw new FetchFault({ kind: 'timeout', ms: deadline.ms });
    throw error;
  }
  return Buffer.concat(chunks);
}

/** Comments (a licence header: Knox's SSO page) and white space before a page's first tag. */
const LEADING_COMMENTS = /^(?:\s|<!--[\s\S]*?-->)*/;

/** An HTML page where an API answer was expected: by its type, or by how it begins. */
export function isHtml(text: string, contentType?: string | null): boolean {
  if (/^\s*text\/html\b/i.test(contentType ?? '')) return true;
  const head = text.slice(0, 4096).replace(/^\uFEFF/, '');
  const start = head
    .slice(LEADING_COMMENTS.exec(head)?.[0].length ?? 0)
    .slice(0, 15)
    .toLowerCase();
  return start.startsWith('<!doctype html') || start.startsWith('<html') || start.startsWith('<head');
}

/** The index of the quote that closes the string opened at `open`, or the text's length. */
function stringEnd(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x22) return i;
  }
  return text.length;
}

/** How deep the text's arrays and objects nest, counted without parsing; stops counting past `limit`. */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length && deepest <= limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) i = stringEnd(text, i);
    else if (c === 0x7b || c === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

/**
 * Refuses an answer meant to be JSON that is an HTML page (a login page, a proxy) or nests deeper
 * than any real answer (which would overflow the stack of every recursive reader after it), before
 * any library parses it.
 */
export function refuseUnlikeJson(text: string, contentType?: string | null): void {
  if (isHtml(text, contentType)) throw new FetchFault({ kind: 'html' });
  if (jsonDepth(text) > MAX_JSON_DEPTH) throw new FetchFault({ kind: 'too-deep', maxDepth: MAX_JSON_DEPTH });
}

/** An answer meant to be JSON, checked (refuseUnlikeJson) and parsed. */
export function checkedJson(text: string, contentType?: string | null): unknown {
  refuseUnlikeJson(text, contentType);
  try {
    return JSON.parse(text);
  } catch {
    throw new FetchFault({ kind: 'not-json' });
  }
}

/** Where a redirect points, when it stays on the configured origin and under its base path; else a fault. */
export function redirectWithin(location: string | null | undefined, current: URL, base: URL): URL {
  const next = location && URL.canParse(location, current.href) ? new URL(location, current) : undefined;
  const basePath = `${base.pathname.replace(/\/$/, '')}/`;
  if (!next || next.origin !== base.origin || !`${next.pathname}/`.startsWith(basePath))
    throw new FetchFault({ kind: 'redirect', to: next?.origin });
  return next;
}

/** Redirects followed within the base at most, per request. */
export const MAX_REDIRECTS = 3;
