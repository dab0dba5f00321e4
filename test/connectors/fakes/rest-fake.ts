import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
export const fixture = (path: string) => readFileSync(join(FIXTURES, path), 'utf8');

export interface Answer {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  /** Wait this long before answering (timeouts, one-at-a-time checks). */
  delayMs?: number;
  /** Writes the answer itself instead (an endless body, a gzip bomb: test/connectors/fakes/hostile.ts). */
  respond?: (res: ServerResponse) => void;
}

/** One endpoint of the API's published shape: method, path pattern, the query parameters it takes. */
export interface Route {
  name: string;
  pattern: RegExp;
  query?: readonly string[];
  answer(match: RegExpExecArray, url: URL, headers: IncomingMessage['headers']): Answer;
}

export interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
}

/**
 * A loopback server that answers as the real API would, from real responses. A request outside the
 * published shape (another method, an unknown path, a query parameter the endpoint does not take) is
 * answered 400/404 and recorded in `violations`, which every test expects to stay empty.
 */
export class RestFake {
  readonly seen: Seen[] = [];
  readonly violations: string[] = [];
  /** Most requests in flight at once: the connector must keep it at 1. */
  maxInFlight = 0;
  private inFlight = 0;
  private readonly overrides = new Map<string, Answer>();
  private readonly delays = new Set<NodeJS.Timeout>();
  private server?: Server;

  constructor(private readonly routes: readonly Route[]) {}

  /** Answers every request to the named route with this instead (faults). */
  override(route: string, answer: Answer): void {
    this.overrides.set(route, answer);
  }

  /** Listens on a free loopback port: plain HTTP, or HTTPS with `tls`'s key and certificate (PEM). */
  async start(tls?: { key: string; cert: string }): Promise<string> {
    const handler = (req: IncomingMessage, res: ServerResponse) => void this.handle(req, res);
    this.server = tls ? createTlsServer(tls, handler) : createServer(handler);
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `${tls ? 'https' : 'http'}://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Requests received and not answered yet (a delayed answer still on its way). */
  get pending(): number {
    return this.inFlight;
  }

  async stop(): Promise<void> {
    for (const timer of this.delays) clearTimeout(timer);
    this.delays.clear();
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private route(req: IncomingMessage, url: URL): { route: Route; match: RegExpExecArray } | string {
    if (req.method !== 'GET') return `${req.method} ${url.pathname}: only GET is read`;
    for (const route of this.routes) {
      const match = route.pattern.exec(url.pathname);
      if (!match) continue;
      const extra = [...url.searchParams.keys()].filter((k) => !(route.query ?? []).includes(k));
      if (extra.length) return `${url.pathname}: ${route.name} takes no query parameter ${extra.join(', ')}`;
      return { route, match };
    }
    return `GET ${url.pathname}: no such endpoint`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    this.seen.push({ method: req.method ?? '', path: `${url.pathname}${url.search}`, headers: req.headers });
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      const found = this.route(req, url);
      if (typeof found === 'string') {
        this.violations.push(found);
        res.writeHead(found.includes('no such endpoint') ? 404 : 400).end(found);
        return;
      }
      const answer =
        this.overrides.get(found.route.name) ?? found.route.answer(found.match, url, req.headers);
      if (answer.delayMs) await this.sleep(answer.delayMs);
      if (res.destroyed) return;
      if (answer.respond) return answer.respond(res);
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body ?? '');
    } finally {
      this.inFlight--;
    }
  }

  /** Resolves after `ms`, or never once the fake stopped (its connections are closed by then). */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.delays.delete(timer);
        resolve();
      }, ms);
      this.delays.add(timer);
    });
  }
}

/** Answers with a fixture when the id is the one it holds, else the system's 404. */
export function byId(id: string, file: string, notFound: string): (m: RegExpExecArray) => Answer {
  return (m) => (m[1] === id ? { body: fixture(file) } : { status: 404, body: notFound });
}
