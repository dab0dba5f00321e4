import { describe, expect, it } from 'vitest';
import { InputTooLargeError, SlackDownloadError } from '../../src/errors.ts';
import {
  allowedFileHosts,
  downloadSlackFile,
  type SlackFileRef,
  SlackFileSchema,
} from '../../src/slack/download.ts';

// Each guard of downloadSlackFile on its own: every case passes all the other guards, so deleting the
// guard under test (and only that one) makes its case fail. Limits differ per case on purpose.

const HOST = 'files.slack.com';
const URL_OK = `https://${HOST}/files-pri/T1-F1/download/app.log`;

interface Served {
  status?: number;
  headers?: Record<string, string>;
  chunks?: string[] | null;
}

/** A fake fetch answering one response; records the request and whether the body was cancelled. */
function fakeSlack(served: Served) {
  const seen = { requests: 0, auth: '' as string | null, cancelled: false };
  const fetch = (async (_url: URL, init?: RequestInit) => {
    seen.requests++;
    seen.auth = new Headers(init?.headers).get('authorization');
    const chunks = (served.chunks ?? ['java.lang.OutOfMemoryError: Java heap space\n']).map((c) =>
      new TextEncoder().encode(c),
    );
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
      cancel() {
        seen.cancelled = true;
      },
    });
    const status = served.status ?? 200;
    // A 204/304-like answer has no body at all.
    return new Response(served.chunks === null ? null : body, {
      status,
      headers: served.headers ?? { 'content-type': 'text/plain' },
    });
  }) as typeof globalThis.fetch;
  return { fetch, seen };
}

async function text(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  let out = '';
  for await (const c of chunks) out += new TextDecoder().decode(c);
  return out;
}

function download(file: Partial<SlackFileRef>, maxBytes: number, served: Served) {
  const slack = fakeSlack(served);
  const ref = { id: 'F1', name: 'app.log', url_private_download: URL_OK, ...file };
  const result = downloadSlackFile(ref, {
    token: 'xoxb-1',
    maxBytes,
    allowedHosts: [HOST],
    fetch: slack.fetch,
  });
  return { result, seen: slack.seen };
}

describe('downloadSlackFile guards, one at a time', () => {
  it('passes a plain file through, with the bot token', async () => {
    const { result, seen } = download({}, 100, { chunks: ['line one\n', 'line two\n'] });
    expect(await text(await result)).toBe('line one\nline two\n');
    expect(seen).toEqual({ requests: 1, auth: 'Bearer xoxb-1', cancelled: false });
  });

  it('refuses a file whose declared size is over the limit, before any request', async () => {
    const { result, seen } = download({ size: 1001 }, 1000, {});
    await expect(result).rejects.toThrow(InputTooLargeError);
    await expect(result).rejects.toThrow(/^app\.log: larger than the limit of 1000 bytes/);
    expect(seen.requests).toBe(0);
  });

  it('accepts a declared size exactly at the limit', async () => {
    const { result } = download({ size: 44 }, 44, {});
    expect(await text(await result)).toHaveLength(44);
  });

  it.each([403, 404, 500])('refuses HTTP %d and cancels the body', async (status) => {
    const { result, seen } = download({}, 5000, { status, chunks: ['not found'] });
    await expect(result).rejects.toThrow(SlackDownloadError);
    await expect(result).rejects.toThrow(new RegExp(`HTTP ${status}`));
    expect(seen.cancelled).toBe(true);
  });

  it('refuses an answer without a body', async () => {
    const { result } = download({}, 5000, { status: 404, chunks: null });
    await expect(result).rejects.toThrow(
      /app\.log: could not download it from Slack: Slack answered HTTP 404/,
    );
  });

  it('refuses a Content-Length over the limit before reading the body', async () => {
    // The body itself is small: only the header can trip this guard.
    const { result, seen } = download({}, 2048, { headers: { 'content-length': '2049' }, chunks: ['tiny'] });
    await expect(result).rejects.toThrow(/app\.log: larger than the limit of 2 KiB/);
    expect(seen.cancelled).toBe(true);
  });

  it('accepts a Content-Length exactly at the limit', async () => {
    const body = 'x'.repeat(64);
    const { result } = download({}, 64, { headers: { 'content-length': '64' }, chunks: [body] });
    expect(await text(await result)).toBe(body);
  });

  it('refuses a text/html answer even when the page does not start like HTML', async () => {
    const { result, seen } = download({}, 9000, {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      chunks: ['Sign in to Slack'],
    });
    await expect(result).rejects.toThrow(/sign-in page .* the app has the files:read scope\./);
    expect(seen.cancelled).toBe(true);
  });

  it('reads an answer without a Content-Type', async () => {
    const { result } = download({}, 100, { headers: {}, chunks: ['plain'] });
    expect(await text(await result)).toBe('plain');
  });

  it('counts bytes while streaming when no Content-Length is sent', async () => {
    const { result } = download({}, 10, { chunks: ['12345', '67890', '1'] });
    const chunks = await result;
    await expect(text(chunks)).rejects.toThrow(/app\.log: larger than the limit of 10 bytes/);
    // Exactly the limit streams through.
    expect(await text(await download({}, 10, { chunks: ['12345', '67890'] }).result)).toBe('1234567890');
  });

  it.each([
    ['<!DOCTYPE html><html>', true],
    ['  \n<HTML lang="en">', true],
    ['<html>', true],
    ['<h1>not a page</h1>', false],
  ])('sniffs the first chunk %j for a sign-in page: %s', async (first, refused) => {
    const chunks = await download({}, 4096, { chunks: [first, 'rest'] }).result;
    if (refused) await expect(text(chunks)).rejects.toThrow(/sign-in page/);
    else expect(await text(chunks)).toBe(`${first}rest`);
  });

  it('looks only at the first chunk, and only at its first 512 bytes', async () => {
    const later = await download({}, 4096, { chunks: ['log line\n', '<html>'] }).result;
    expect(await text(later)).toBe('log line\n<html>');
    const deep = `${' '.repeat(600)}<html>`;
    expect(await text(await download({}, 4096, { chunks: [deep] }).result)).toBe(deep);
  });

  it('names the file by its id when it has no name', async () => {
    const { result } = download({ name: undefined, size: 99 }, 10, {});
    await expect(result).rejects.toThrow(/^F1: larger than/);
    const noUrl = download({ name: undefined, url_private_download: undefined }, 10, {});
    await expect(noUrl.result).rejects.toThrow(/^F1: could not download it from Slack: .*no download URL/);
  });
});

describe('allowedFileHosts and the file schema', () => {
  it('is only Slack file hosts without an API URL', () => {
    expect(allowedFileHosts(undefined)).toEqual(['files.slack.com', 'files.slack-gov.com']);
  });

  it('reads the fields a download uses and keeps the others', () => {
    const file = { id: 'F1', name: 'a.log', size: 3, url_private_download: URL_OK, mimetype: 'text/plain' };
    expect(SlackFileSchema.parse(file)).toEqual(file);
    expect(() => SlackFileSchema.parse({ id: 1 })).toThrow();
    expect(() => SlackFileSchema.parse({ id: 'F1', size: '3' })).toThrow();
  });
});
