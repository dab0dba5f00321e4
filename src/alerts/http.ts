import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A body past the cap: answered 413 without reading the rest. */
export class BodyTooLargeError extends Error {}

/**
 * The request's body, refused as soon as it passes `max` bytes: a Content-Length above it is refused
 * before a byte is read, a chunked body once the running count passes it, so a 10 MB body is never
 * held (at most `max` plus one chunk).
 */
export function readCapped(req: IncomingMessage, max: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) return Promise.reject(new BodyTooLargeError());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.off('data', onData);
        req.pause();
        reject(new BodyTooLargeError());
        return;
      }
      chunks.push(chunk);
    };
    let ended = false;
    req.on('data', onData);
    req.once('end', () => {
      ended = true;
      resolve(Buffer.concat(chunks));
    });
    req.once('error', reject);
    // A sender that goes away mid-body: nothing to answer, nothing kept.
    req.once('close', () => {
      if (!ended) reject(new Error('the sender closed the connection before the body ended'));
    });
  });
}

/** True when `given` equals `expected`, compared in constant time for equal lengths. */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What a credential check found: none sent (401), a wrong one (403), or the right one. */
export type Authentication = 'ok' | 'missing' | 'wrong';

/** `Authorization: Basic ...` as user and password, undefined when absent or not Basic. */
export function basicOf(req: IncomingMessage): { username: string; password: string } | undefined {
  const header = req.headers.authorization ?? '';
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match?.[1]) return undefined;
  const text = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = text.indexOf(':');
  return colon < 0 ? undefined : { username: text.slice(0, colon), password: text.slice(colon + 1) };
}

/** `Authorization: Bearer ...`'s token, undefined when absent or another scheme. */
export function bearerOf(req: IncomingMessage): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
}

/** Answers with a JSON body and closes the connection when the body was not read to its end. */
export function answer(res: ServerResponse, status: number, body: object, close = false): void {
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(text);
}
