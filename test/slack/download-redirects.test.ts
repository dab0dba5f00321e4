import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type OutgoingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { SlackDownloadError } from '../../src/errors.ts';
import { downloadSlackFile } from '../../src/slack/download.ts';
import { type Harness, startHarness, waitFor } from './support/harness.ts';
import { eventEnvelope, fileShareEvent } from './support/payloads.ts';

/*
 * Issue 13, item 3: the host check used to apply to the first URL only, fetch followed a 302 to any
 * host and the content was posted to the channel; an http:// URL got the bearer token in clear.
 */
const TOKEN = 'xoxb-redirect-test';
const HEAP_OOM =
  'java.lang.OutOfMemoryError: Java heap space\n\tat java.util.Arrays.copyOf(Arrays.java:3236)\n';

/** A plain HTTP server on 127.0.0.1 that records what reached it. */
class Recorder {
  readonly requests: { url: string; headers: IncomingHttpHeaders }[] = [];
  private server?: Server;
  host = '';

  constructor(
    private readonly answer: (url: string) => {
      status: number;
      headers?: OutgoingHttpHeaders;
      body?: string;
    },
  ) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.requests.push({ url: req.url ?? '', headers: req.headers });
      const { status, headers, body } = this.answer(req.url ?? '');
      res.writeHead(status, headers).end(body ?? '');
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.host = `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server?.close(() => resolve()));
  }
}

async function drain(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  let text = '';
  for await (const c of chunks) text += Buffer.from(c).toString('utf8');
  return text;
}

describe('downloadSlackFile follows no redirect off the Slack hosts', () => {
  const elsewhere = new Recorder(() => ({ status: 200, body: HEAP_OOM }));
  const slack = new Recorder((url) => {
    if (url === '/off') return { status: 302, headers: { location: `http://${elsewhere.host}/x.log` } };
    if (url === '/hop') return { status: 302, headers: { location: '/file' } };
    if (url === '/loop') return { status: 302, headers: { location: '/loop' } };
    return { status: 200, headers: { 'content-type': 'text/plain' }, body: HEAP_OOM };
  });
  beforeAll(async () => {
    await elsewhere.start();
    await slack.start();
  });
  afterAll(async () => {
    await elsewhere.stop();
    await slack.stop();
  });
  const options = () => ({
    token: TOKEN,
    maxBytes: 1 << 20,
    allowedHosts: [slack.host],
    allowHttpLoopback: true,
  });

  it('refuses a 302 to another host before asking it for anything', async () => {
    const file = { id: 'F1', name: 'x.log', url_private_download: `http://${slack.host}/off` };
    const refused = downloadSlackFile(file, options());
    await expect(refused).rejects.toBeInstanceOf(SlackDownloadError);
    await expect(refused).rejects.toThrow(
      `x.log: could not download it from Slack: Slack redirected the download to ${elsewhere.host}, which is not a Slack file host; memdoctor does not follow it`,
    );
    expect(elsewhere.requests).toEqual([]);
  });

  it('follows a redirect within the Slack hosts, with the token', async () => {
    const file = { id: 'F2', url_private_download: `http://${slack.host}/hop` };
    expect(await drain(await downloadSlackFile(file, options()))).toBe(HEAP_OOM);
    expect(slack.requests.slice(-2).map((r) => [r.url, r.headers.authorization])).toEqual([
      ['/hop', `Bearer ${TOKEN}`],
      ['/file', `Bearer ${TOKEN}`],
    ]);
  });

  it('gives up after a few redirects', async () => {
    const file = { id: 'F3', url_private_download: `http://${slack.host}/loop` };
    await expect(downloadSlackFile(file, options())).rejects.toThrow('more than 5 redirects');
  });
});

describe('downloadSlackFile sends the token over https only', () => {
  const server = new Recorder(() => ({ status: 200, body: HEAP_OOM }));
  beforeAll(() => server.start());
  afterAll(() => server.stop());

  it('never sends the token to an http:// URL unless loopback http is switched on', async () => {
    const file = { id: 'F4', name: 'x.log', url_private_download: `http://${server.host}/x.log` };
    const options = { token: TOKEN, maxBytes: 1 << 20, allowedHosts: [server.host] };
    await expect(downloadSlackFile(file, options)).rejects.toThrow(
      `the URL points at http://${server.host}, which is not https (the bot token only travels encrypted)`,
    );
    expect(server.requests).toEqual([]);
  });

  it('never sends it over http to a Slack host, switch or not (only loopback may use http)', async () => {
    const calls: string[] = [];
    const fetchSpy = (async (url: URL | string) => {
      calls.push(String(url));
      return new Response(HEAP_OOM);
    }) as typeof fetch;
    const file = { id: 'F5', url_private_download: 'http://files.slack.com/files-pri/T1-F5/x.log' };
    const options = {
      token: TOKEN,
      maxBytes: 1 << 20,
      allowedHosts: ['files.slack.com'],
      allowHttpLoopback: true,
      fetch: fetchSpy,
    };
    await expect(downloadSlackFile(file, options)).rejects.toThrow(/which is not https/);
    expect(calls).toEqual([]);
  });

  it('refuses a redirect from https to http on the same Slack host', async () => {
    const calls: string[] = [];
    const fetchSpy = (async (url: URL | string) => {
      calls.push(String(url));
      return new Response(null, { status: 302, headers: { location: 'http://files.slack.com/plain' } });
    }) as typeof fetch;
    const file = { id: 'F6', url_private_download: 'https://files.slack.com/files-pri/T1-F6/x.log' };
    const options = { token: TOKEN, maxBytes: 1 << 20, allowedHosts: ['files.slack.com'], fetch: fetchSpy };
    await expect(downloadSlackFile(file, options)).rejects.toThrow(
      'Slack redirected the download to http://files.slack.com, which is not https',
    );
    expect(calls).toEqual(['https://files.slack.com/files-pri/T1-F6/x.log']);
  });

  it('accepts SLACK_API_URL over http only on loopback with MEMDOCTOR_ALLOW_HTTP_LOOPBACK', () => {
    expect(() => loadConfig({ SLACK_API_URL: 'http://slack-proxy.internal/api/' })).toThrow(
      /must be an https:\/\/ URL: the bot token is sent to it[\s\S]*→ at SLACK_API_URL/,
    );
    expect(() => loadConfig({ SLACK_API_URL: 'http://127.0.0.1:9/api/' })).toThrow(/SLACK_API_URL/);
    const local = loadConfig({
      SLACK_API_URL: 'http://127.0.0.1:9/api/',
      MEMDOCTOR_ALLOW_HTTP_LOOPBACK: 'true',
    });
    expect(local.MEMDOCTOR_ALLOW_HTTP_LOOPBACK).toBe(true);
    expect(() =>
      loadConfig({
        SLACK_API_URL: 'http://slack-proxy.internal/api/',
        MEMDOCTOR_ALLOW_HTTP_LOOPBACK: 'true',
      }),
    ).toThrow(/SLACK_API_URL/);
    expect(loadConfig({ SLACK_API_URL: 'https://slack.example.gov/api/' }).SLACK_API_URL).toBe(
      'https://slack.example.gov/api/',
    );
  });
});

describe('a shared file that redirects off Slack', () => {
  const elsewhere = new Recorder(() => ({ status: 200, body: HEAP_OOM }));
  let h: Harness;
  beforeAll(() => elsewhere.start());
  afterAll(() => elsewhere.stop());
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(() => h.stop());

  it('is refused with a clear note, and its content is never fetched nor posted', async () => {
    const file = h.fake.addRedirectingFile('F7', 'executor.log', `http://${elsewhere.host}/executor.log`);
    const event = fileShareEvent({
      user: 'UALICE01',
      channel: 'CINCIDENT',
      threadTs: '1700000000.000001',
      parentUserId: h.fake.botUserId,
      files: [file],
    });
    expect((await h.sender.event(eventEnvelope(event))).status).toBe(200);
    const note = await waitFor(() => h.fake.callsTo('chat.postEphemeral')[0]);
    expect(note.args.text).toContain(
      `redirected the download to ${elsewhere.host}, which is not a Slack file host`,
    );
    expect(elsewhere.requests).toEqual([]);
    expect(h.fake.callsTo('chat.postMessage')).toEqual([]);
    expect(JSON.stringify(h.fake.calls)).not.toContain('OutOfMemoryError');
  });
});
