import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

/**
 * Answers a security review sends a client that holds production credentials: each writes the
 * response itself (RestFake's and AwsFake's `respond`), and stops when the client hangs up.
 */

const CHUNK = Buffer.alloc(64 * 1024, 'x');

/** Writes `chunk` again and again, as fast as the client reads, until it hangs up. */
function forever(res: ServerResponse, chunk: Buffer): void {
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  // One chunk per turn of the event loop at most: the client under test runs in this process too.
  const write = () => {
    if (closed || res.destroyed) return;
    if (res.write(chunk)) setImmediate(write);
    else res.once('drain', write);
  };
  write();
}

/** 200 with a body that never ends (no Content-Length: chunked), a JSON content type. */
export function endlessBody(contentType = 'application/json'): (res: ServerResponse) => void {
  return (res) => {
    res.writeHead(200, { 'content-type': contentType });
    res.write('{"items":["');
    forever(res, CHUNK);
  };
}

/** One gzip member of 16 MiB of zeros: about 16 KiB on the wire. Members repeat into one stream (RFC 1952 2.2). */
const BOMB_MEMBER = gzipSync(Buffer.alloc(16 * 1024 * 1024), { level: 9 });

/**
 * A gzip bomb: Content-Encoding gzip, and members of 16 MiB of zeros each sent without end, so a
 * client that inflates what it is sent grows by about 1000 bytes per byte read.
 */
export function gzipBomb(contentType = 'application/json'): (res: ServerResponse) => void {
  return (res) => {
    res.writeHead(200, { 'content-type': contentType, 'content-encoding': 'gzip' });
    forever(res, BOMB_MEMBER);
  };
}

/** The headers at once, then one byte of the body every `everyMs`, without end: a slow answer. */
export function trickle(everyMs = 50, contentType = 'application/json'): (res: ServerResponse) => void {
  return (res) => {
    res.writeHead(200, { 'content-type': contentType });
    res.write('{');
    const timer = setInterval(() => {
      if (res.destroyed) clearInterval(timer);
      else res.write(' ');
    }, everyMs);
    res.on('close', () => clearInterval(timer));
  };
}

/** A valid JSON document nested `depth` levels: `{"a":{"a":...1...}}`. */
export function nestedJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** 302 to `location`. */
export function redirectTo(location: string): (res: ServerResponse) => void {
  return (res) => {
    res.writeHead(302, { location, 'content-type': 'text/html' });
    res.end(`<html><body>Moved <a href="${location}">here</a></body></html>`);
  };
}

/**
 * Another loopback server, the target of a redirect: it records every request's headers and answers
 * `body` (a valid answer of the API, so a client that followed the redirect would diagnose it).
 */
export class OtherServer {
  readonly seen: IncomingMessage['headers'][] = [];
  private server?: Server;
  constructor(private readonly body: string) {}

  /** Listens on a free port of 127.0.0.1; returns the port. */
  async start(): Promise<number> {
    this.server = createServer((req, res) => {
      this.seen.push(req.headers);
      res.writeHead(200, { 'content-type': 'application/json' }).end(this.body);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
