import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { blockKitProblems } from './block-kit.ts';
import { loadWebApiSpec, type MethodSpec, specViolation } from './slack-spec.ts';

/** One Web API call the fake accepted. */
export interface RecordedCall {
  method: string;
  args: Record<string, string>;
  /** What the fake answered (e.g. the ts of a posted message). */
  result: Record<string, unknown>;
}

/** A message as the fake keeps it, for conversations.replies and for tests to read. */
export interface StoredMessage {
  channel: string;
  ts: string;
  thread_ts?: string;
  text?: string;
  blocks: Record<string, unknown>[];
  user: string;
}

interface StoredFile {
  name: string;
  bytes: Buffer;
  /** Answered with a 302 to this URL instead of the bytes (a redirect off or within Slack). */
  redirect?: string;
  /** The connection is cut after this many bytes of the body, as a network failure would. */
  breakAfter?: number;
  /** Only this many bytes of the body are sent until `gate` resolves: a download Slack is slow to finish. */
  holdAfter?: number;
  gate?: Promise<void>;
}

/** One page of `messages` as Slack's cursor pagination gives it; the cursor is the next page's offset. */
function paged(messages: StoredMessage[], args: Record<string, string>, limit: number) {
  const from = Number(args.cursor ?? 0);
  const to = from + Number(args.limit ?? limit);
  const next = to < messages.length ? String(to) : '';
  return {
    messages: messages.slice(from, to),
    has_more: next !== '',
    response_metadata: { next_cursor: next },
  };
}

/** The workspace the fake pretends to be. */
export const TEAM_ID = 'T1';

const LOGIN_PAGE =
  '<!DOCTYPE html><html><head><title>Slack</title></head><body>Sign in to Slack</body></html>';

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of req) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/**
 * A Slack Web API on 127.0.0.1 for tests. It holds every call to Slack's published spec (unknown
 * methods and arguments are refused and recorded in `rejections`), checks the bearer token, keeps
 * the messages it was sent, serves shared files at url_private_download and takes uploads.
 */
export class FakeSlack {
  readonly calls: RecordedCall[] = [];
  readonly rejections: string[] = [];
  readonly responses: Record<string, unknown>[] = [];
  readonly uploads = new Map<string, { filename: string; title?: string; bytes?: Buffer }>();
  /** Group id -> member user ids, for usergroups.users.list. */
  readonly groups = new Map<string, string[]>();
  readonly messages: StoredMessage[] = [];
  /** The Home tab last published for each user (views.publish). */
  readonly homes = new Map<string, Record<string, unknown>>();
  /** User id -> the channels users.conversations says they are in. */
  readonly memberships = new Map<string, string[]>();
  private readonly files = new Map<string, StoredFile>();
  /** How many times each file's bytes were served (a wrong token or a redirect is not counted). */
  private readonly served = new Map<string, number>();
  private readonly gates = new Map<string, Promise<void>>();
  private readonly spec: Map<string, MethodSpec> = loadWebApiSpec();
  private server?: Server;
  private seq = 0;
  base = '';
  /** Socket Mode: the app-level token apps.connections.open accepts, and the URL it hands out. */
  socketMode?: { appToken: string; url: string };
  /** Set: the bot token is refused from now on (invalid_auth), as when it is revoked. */
  botTokenRevoked = false;

  constructor(
    readonly botToken: string,
    readonly botUserId = 'UBOT0001',
  ) {}

  get apiUrl(): string {
    return `${this.base}/api/`;
  }

  get responseUrl(): string {
    return `${this.base}/respond/${++this.seq}`;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.route(req, res).catch((error) => send(res, 500, { ok: false, error: String(error) }));
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** How many times the file `id` was downloaded. */
  downloadsOf(id: string): number {
    return this.served.get(id) ?? 0;
  }

  /** Makes a file downloadable, returning the file object Slack would put in an event. */
  addFile(id: string, name: string, bytes: Buffer) {
    this.files.set(id, { name, bytes });
    return {
      id,
      name,
      size: bytes.length,
      url_private_download: `${this.base}/files-pri/T1-${id}/download/${name}`,
    };
  }

  /**
   * A file whose download promises all of `bytes` (Content-Length) but sends only the first
   * `breakAfter` of them, then cuts the connection.
   */
  addBrokenFile(id: string, name: string, bytes: Buffer, breakAfter: number) {
    this.files.set(id, { name, bytes, breakAfter });
    return {
      id,
      name,
      size: bytes.length,
      url_private_download: `${this.base}/files-pri/T1-${id}/download/${name}`,
    };
  }

  /**
   * A file whose download sends its first `holdAfter` bytes at once and the rest only when the
   * returned `release` is called: it holds whoever reads it for as long as the test wants.
   */
  addHeldFile(id: string, name: string, bytes: Buffer, holdAfter: number) {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.files.set(id, { name, bytes, holdAfter, gate });
    const file = {
      id,
      name,
      size: bytes.length,
      url_private_download: `${this.base}/files-pri/T1-${id}/download/${name}`,
    };
    return { file, release };
  }

  /** A file whose download answers 302 to `location`, as a compromised or odd file host would. */
  addRedirectingFile(id: string, name: string, location: string) {
    this.files.set(id, { name, bytes: Buffer.alloc(0), redirect: location });
    return { id, name, size: 1, url_private_download: `${this.base}/files-pri/T1-${id}/download/${name}` };
  }

  /**
   * Holds every call to `method` until the returned function is called: lets a test see what the
   * app does before Slack has answered (e.g. that it acknowledged the request first).
   */
  hold(method: string): () => void {
    let open: () => void = () => {};
    this.gates.set(
      method,
      new Promise<void>((resolve) => {
        open = resolve;
      }),
    );
    return () => {
      this.gates.delete(method);
      open();
    };
  }

  private readonly failures = new Map<string, string>();

  private readonly rateLimits = new Map<string, number>();

  /**
   * The next call to `method` is answered HTTP 429 with `Retry-After: seconds`, as Slack answers a
   * rate-limited call (api.slack.com/docs/rate-limits); nothing is done or recorded for it.
   */
  rateLimitNext(method: string, seconds: number): void {
    this.rateLimits.set(method, seconds);
  }

  /** The next call to `method` fails with Slack error `error` (e.g. not_in_channel). */
  failNext(method: string, error: string): void {
    this.failures.set(method, error);
  }

  /** Every Web API method called, in order of arrival (before any hold). */
  readonly arrivals: string[] = [];

  callsTo(method: string): RecordedCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.base);
    const body = await readBody(req);
    if (url.pathname.startsWith('/api/')) {
      this.arrivals.push(url.pathname.slice('/api/'.length));
      const method = url.pathname.slice('/api/'.length);
      const gate = this.gates.get(method);
      if (gate) await gate;
      const retryAfter = this.rateLimits.get(method);
      if (retryAfter !== undefined) {
        this.rateLimits.delete(method);
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(retryAfter) });
        res.end(JSON.stringify({ ok: false, error: 'ratelimited' }));
        return;
      }
      return send(res, 200, this.api(req, url, body));
    }
    if (url.pathname.startsWith('/files-pri/')) return this.download(req, res, url);
    if (url.pathname.startsWith('/upload/')) {
      const id = url.pathname.slice('/upload/'.length);
      const upload = this.uploads.get(id);
      if (!upload) return send(res, 404, { ok: false });
      upload.bytes = body;
      res.writeHead(200).end('OK');
      return;
    }
    if (url.pathname.startsWith('/respond/')) {
      const message = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      if (message.blocks !== undefined) {
        const problems = blockKitProblems(message.blocks);
        if (problems.length > 0) this.rejections.push(`response_url: ${problems.join('; ')}`);
      }
      this.responses.push(message);
      return send(res, 200, { ok: true });
    }
    send(res, 404, { ok: false, error: 'not_found' });
  }

  private download(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const id = url.pathname.split('/')[2]?.replace(/^T1-/, '') ?? '';
    const file = this.files.get(id);
    // Slack answers a missing or wrong token with its sign-in page and status 200.
    if (req.headers.authorization !== `Bearer ${this.botToken}` || !file) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(LOGIN_PAGE);
      return;
    }
    if (file.redirect) {
      res.writeHead(302, { location: file.redirect }).end();
      return;
    }
    this.served.set(id, (this.served.get(id) ?? 0) + 1);
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file.bytes.length });
    if (file.gate && file.holdAfter !== undefined) {
      const rest = file.bytes.subarray(file.holdAfter);
      res.write(file.bytes.subarray(0, file.holdAfter));
      void file.gate.then(() => res.end(rest));
      return;
    }
    if (file.breakAfter === undefined) return void res.end(file.bytes);
    res.write(file.bytes.subarray(0, file.breakAfter), () => res.destroy());
  }

  private parseArgs(req: IncomingMessage, url: URL, body: Buffer): Record<string, string> {
    const args: Record<string, string> = Object.fromEntries(url.searchParams);
    const type = req.headers['content-type'] ?? '';
    if (type.startsWith('application/json')) {
      for (const [k, v] of Object.entries(
        JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>,
      ))
        args[k] = typeof v === 'string' ? v : JSON.stringify(v);
    } else Object.assign(args, Object.fromEntries(new URLSearchParams(body.toString('utf8'))));
    return args;
  }

  private api(req: IncomingMessage, url: URL, body: Buffer): Record<string, unknown> {
    const method = url.pathname.slice('/api/'.length);
    const args = this.parseArgs(req, url, body);
    // Slack takes the token as a bearer header or as a `token` argument (the WebClient uses both).
    const token = args.token ?? req.headers.authorization?.replace(/^Bearer /, '');
    delete args.token;
    const expected = method === 'apps.connections.open' ? this.socketMode?.appToken : this.botToken;
    if (token !== expected) return { ok: false, error: 'invalid_auth' };
    if (this.botTokenRevoked && token === this.botToken) return { ok: false, error: 'token_revoked' };
    // Bolt's WebClient adds the workspace's team_id to every call (org-wide apps need it); Slack
    // accepts it on every method although the 2020 spec lists it on few. It must name our team.
    if (args.team_id !== undefined && !this.spec.get(method)?.params.has('team_id')) {
      if (args.team_id !== TEAM_ID) return { ok: false, error: 'team_access_not_granted' };
      delete args.team_id;
    }
    const violation = specViolation(this.spec, method, args);
    if (violation) {
      this.rejections.push(violation);
      return {
        ok: false,
        error: violation.startsWith('unknown method') ? 'unknown_method' : 'invalid_arguments',
      };
    }
    const problems = this.blockProblems(args);
    if (problems.length > 0) {
      this.rejections.push(`${method}: ${problems.join('; ')}`);
      return { ok: false, error: 'invalid_blocks' };
    }
    const failure = this.failures.get(method);
    this.failures.delete(method);
    const result = failure
      ? { ok: false, error: failure }
      : (this.oncallAnswer(method, args) ?? this.historyAnswer(method, args) ?? this.answer(method, args));
    this.calls.push({ method, args, result });
    return result;
  }

  private blockProblems(args: Record<string, string>): string[] {
    const problems: string[] = [];
    if (args.blocks !== undefined) problems.push(...blockKitProblems(JSON.parse(args.blocks)));
    if (args.view !== undefined)
      problems.push(...blockKitProblems((JSON.parse(args.view) as { blocks?: unknown }).blocks, 100));
    if ((args.text ?? '').length > 40_000) problems.push('text over 40000');
    return problems;
  }

  private deleteMessage(args: Record<string, string>): Record<string, unknown> {
    const index = this.messages.findIndex((m) => m.channel === args.channel && m.ts === args.ts);
    if (index === -1) return { ok: false, error: 'message_not_found' };
    this.messages.splice(index, 1);
    return { ok: true, channel: args.channel, ts: args.ts };
  }

  /**
   * conversations.history: the channel's top-level messages (thread roots) after `oldest`, newest
   * first, as Slack lists them; conversations.replies: a thread, its root first, then oldest first.
   * Both a page of `limit` at a time, `next_cursor` naming the next page.
   */
  private historyAnswer(method: string, args: Record<string, string>): Record<string, unknown> | undefined {
    if (method === 'conversations.replies') {
      const thread = this.messages.filter(
        (m) => m.channel === args.channel && (m.ts === args.ts || m.thread_ts === args.ts),
      );
      return { ok: true, ...paged(thread, args, 1000) };
    }
    if (method !== 'conversations.history') return undefined;
    const after = Number(args.oldest ?? 0);
    const top = this.messages
      .filter((m) => m.channel === args.channel && !m.thread_ts && Number(m.ts) > after)
      .reverse();
    return { ok: true, ...paged(top, args, 100) };
  }

  /** The DM and Home tab methods (issue 14), apart so `answer` stays readable. */
  private oncallAnswer(method: string, args: Record<string, string>): Record<string, unknown> | undefined {
    // The DM with the one user asked for, named as Slack names IM channels (D...).
    if (method === 'conversations.open')
      return { ok: true, channel: { id: `D${(args.users ?? '').replace(/^U/, '')}` } };
    if (method === 'users.conversations')
      return {
        ok: true,
        channels: (this.memberships.get(args.user ?? '') ?? []).map((id) => ({ id })),
        response_metadata: { next_cursor: '' },
      };
    if (method === 'views.publish') {
      this.homes.set(args.user_id ?? '', JSON.parse(args.view ?? '{}') as Record<string, unknown>);
      return { ok: true, view: { id: `V${this.seq}`, type: 'home' } };
    }
    return undefined;
  }

  private answer(method: string, args: Record<string, string>): Record<string, unknown> {
    const ts = `1700000000.${String(++this.seq).padStart(6, '0')}`;
    switch (method) {
      case 'auth.test':
        return {
          ok: true,
          url: `${this.base}/`,
          team: 'Test',
          user: 'memdoctor',
          team_id: TEAM_ID,
          user_id: this.botUserId,
          bot_id: 'B1',
        };
      case 'chat.postMessage':
        this.messages.push({
          channel: args.channel ?? '',
          ts,
          ...(args.thread_ts ? { thread_ts: args.thread_ts } : {}),
          text: args.text,
          blocks: JSON.parse(args.blocks ?? '[]'),
          user: this.botUserId,
        });
        return { ok: true, channel: args.channel, ts, message: { ts, text: args.text } };
      case 'chat.update': {
        const message = this.messages.find((m) => m.channel === args.channel && m.ts === args.ts);
        if (!message) return { ok: false, error: 'message_not_found' };
        message.text = args.text;
        message.blocks = JSON.parse(args.blocks ?? '[]');
        return { ok: true, channel: args.channel, ts: args.ts, text: args.text };
      }
      case 'chat.delete':
        return this.deleteMessage(args);
      case 'chat.postEphemeral':
        return { ok: true, message_ts: ts };
      case 'chat.getPermalink':
        return {
          ok: true,
          channel: args.channel,
          permalink: `${this.base}/archives/${args.channel}/p${(args.message_ts ?? '').replace('.', '')}`,
        };
      case 'apps.connections.open':
        return { ok: true, url: this.socketMode?.url };
      case 'views.open':
        return { ok: true, view: { id: `V${this.seq}` } };
      case 'usergroups.users.list':
        return { ok: true, users: this.groups.get(args.usergroup ?? '') ?? [] };
      case 'files.getUploadURLExternal': {
        const id = `F${this.seq}`;
        this.uploads.set(id, { filename: args.filename ?? '' });
        return { ok: true, upload_url: `${this.base}/upload/${id}`, file_id: id };
      }
      case 'files.completeUploadExternal': {
        const files = JSON.parse(args.files ?? '[]') as { id: string; title?: string }[];
        for (const f of files) {
          const upload = this.uploads.get(f.id);
          if (upload && f.title) upload.title = f.title;
        }
        return { ok: true, files: files.map((f) => ({ id: f.id, title: f.title })) };
      }
      default:
        return { ok: true };
    }
  }
}
