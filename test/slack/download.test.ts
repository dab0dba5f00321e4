import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputTooLargeError, SlackDownloadError } from '../../src/errors.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';
import { type DiagnoseDeps, diagnoseSlackFile } from '../../src/slack/diagnose.ts';
import { allowedFileHosts, downloadSlackFile } from '../../src/slack/download.ts';
import { PLAYBOOKS_DIR } from './support/harness.ts';

const TOKEN = 'xoxb-download-test';
let server: Server;
let host = '';
const seenAuth: (string | undefined)[] = [];
let closeEndless = () => {};
const endlessClosed = new Promise<void>((resolve) => {
  closeEndless = resolve;
});

beforeAll(async () => {
  server = createServer((req, res) => {
    seenAuth.push(req.headers.authorization);
    if (req.url === '/chunked') {
      // No Content-Length: the limit has to hold while streaming.
      res.writeHead(200, { 'content-type': 'text/plain' });
      for (let i = 0; i < 64; i++) res.write('z'.repeat(1024));
      res.end();
      return;
    }
    if (req.url === '/bomb.gz') {
      const bomb = gzipSync(Buffer.alloc(4 * 1024 * 1024, 'java.lang.OutOfMemoryError: Java heap space\n'));
      res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': bomb.length }).end(bomb);
      return;
    }
    if (req.url === '/endless') {
      // Never ends: only the reader letting go closes it.
      res.writeHead(200, { 'content-type': 'text/plain' }).write('e'.repeat(1024));
      res.once('close', () => closeEndless());
      return;
    }
    if (req.url === '/html-as-octets') {
      res
        .writeHead(200, { 'content-type': 'application/octet-stream' })
        .end('<!DOCTYPE html><html>login</html>');
      return;
    }
    res.writeHead(404).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

async function drain(chunks: AsyncIterable<Uint8Array>): Promise<number> {
  let n = 0;
  for await (const c of chunks) n += c.length;
  return n;
}

// The test server speaks plain http on 127.0.0.1, which only the loopback switch allows.
const options = () => ({ token: TOKEN, maxBytes: 16 * 1024, allowedHosts: [host], allowHttpLoopback: true });

describe('downloadSlackFile', () => {
  it('lets the connection go when a download is cancelled before it is read', async () => {
    const chunks = await downloadSlackFile(
      { id: 'F10', name: 'endless.log', url_private_download: `http://${host}/endless` },
      { ...options(), readBytes: 64 * 1024 },
    );
    await chunks.cancel();
    await endlessClosed;
    expect(await drain(chunks)).toBe(0);
  });

  it('stops a download without Content-Length once it passes the limit', async () => {
    const chunks = await downloadSlackFile(
      { id: 'F1', name: 'big.log', url_private_download: `http://${host}/chunked` },
      options(),
    );
    await expect(drain(chunks)).rejects.toBeInstanceOf(InputTooLargeError);
    expect(seenAuth.at(-1)).toBe(`Bearer ${TOKEN}`);
  });

  it('never sends the token to a host that is not Slack', async () => {
    const before = seenAuth.length;
    const file = { id: 'F2', name: 'x.log', url_private_download: 'https://evil.example.com/x.log' };
    await expect(downloadSlackFile(file, options())).rejects.toThrow(/not a Slack file host/);
    expect(seenAuth.length).toBe(before);
  });

  it('recognises a sign-in page even when it is not labelled as HTML', async () => {
    const chunks = await downloadSlackFile(
      { id: 'F3', url_private_download: `http://${host}/html-as-octets` },
      options(),
    );
    await expect(drain(chunks)).rejects.toBeInstanceOf(SlackDownloadError);
  });

  it('refuses a file without a download URL', async () => {
    await expect(downloadSlackFile({ id: 'F4' }, options())).rejects.toThrow(/no download URL/);
  });

  it('allows Slack file hosts and the configured API host', () => {
    expect(allowedFileHosts('https://slack.example.gov/api/')).toEqual([
      'files.slack.com',
      'files.slack-gov.com',
      'slack.example.gov',
    ]);
  });
});

describe('diagnoseSlackFile', () => {
  it('limits the size after gunzip as well as the download', async () => {
    const deps: DiagnoseDeps = {
      settings: {
        botToken: TOKEN,
        maxUploadBytes: 1024 * 1024,
        maxExpandedBytes: 1024 * 1024,
        fileHosts: [host],
        allowHttpLoopback: true,
      },
      playbooks: loadPlaybooks(PLAYBOOKS_DIR),
    };
    const file = { id: 'F5', name: 'bomb.gz', url_private_download: `http://${host}/bomb.gz` };
    await expect(diagnoseSlackFile(deps, file)).rejects.toThrow(/bomb\.gz: larger than the limit of 1 MiB/);
  });
});
