import { z } from 'zod';
import { InputTooLargeError, MemdoctorError, messageOf, SlackDownloadError } from '../errors.ts';
import { isLoopbackHost } from '../net.ts';

/** The parts of a Slack file object (from a `file_share` or `app_mention` event) that a download uses. */
export const SlackFileSchema = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  size: z.number().optional(),
  url_private_download: z.string().optional(),
});

export type SlackFileRef = z.infer<typeof SlackFileSchema>;

export interface DownloadOptions {
  token: string;
  /** Largest download, in bytes (MEMDOCTOR_MAX_UPLOAD_BYTES). */
  maxBytes: number;
  /** Hosts the bot token may be sent to: Slack's file host plus the configured API host. */
  allowedHosts: readonly string[];
  /**
   * Allows plain http to a loopback host (127.0.0.0/8, ::1, localhost): a fake Slack in tests or on
   * a laptop (MEMDOCTOR_ALLOW_HTTP_LOOPBACK). Everything else gets the token over https only.
   */
  allowHttpLoopback?: boolean;
  /**
   * Most bytes one read of the body brings (a read into a buffer of this size), so the chunks in
   * hand are bounded whatever the connection delivers; unset, chunks come as fetch gives them.
   */
  readBytes?: number;
  fetch?: typeof fetch;
}

/** Redirects followed within Slack's hosts before giving up (Slack itself answers without one). */
const MAX_REDIRECTS = 5;
const REDIRECT = new Set([301, 302, 303, 307, 308]);

/** Slack's own file hosts; a token is never sent anywhere else. */
export const SLACK_FILE_HOSTS = ['files.slack.com', 'files.slack-gov.com'];

/** The hosts a download may use: Slack's file hosts plus the host of SLACK_API_URL (GovSlack, proxy, test). */
export function allowedFileHosts(slackApiUrl: string | undefined): string[] {
  const hosts = [...SLACK_FILE_HOSTS];
  if (slackApiUrl) hosts.push(new URL(slackApiUrl).host);
  return hosts;
}

/**
 * Whether the bot token may go to this URL: a Slack file host (or the configured API host) over
 * https; plain http only to a loopback host, and only when the configuration allows it.
 */
function tokenMayGo(url: URL, options: DownloadOptions): string | undefined {
  if (!options.allowedHosts.includes(url.host)) return `${url.host}, which is not a Slack file host`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && options.allowHttpLoopback && isLoopbackHost(url.hostname)) return undefined;
  return `${url.protocol}//${url.host}, which is not https (the bot token only travels encrypted)`;
}

function fileUrl(file: SlackFileRef, options: DownloadOptions): URL {
  const label = file.name ?? file.id;
  if (!file.url_private_download) throw new SlackDownloadError(label, 'the event carries no download URL');
  const url = new URL(file.url_private_download);
  const refused = tokenMayGo(url, options);
  if (refused) throw new SlackDownloadError(label, `the URL points at ${refused}`);
  return url;
}

/**
 * Requests the file, following redirects by hand: each hop must pass the same check as the first
 * URL, so a redirect off Slack's hosts is refused before anything is fetched from there.
 */
async function request(label: string, first: URL, options: DownloadOptions): Promise<Response> {
  const doFetch = options.fetch ?? fetch;
  let url = first;
  for (let hop = 0; ; hop++) {
    const response = await doFetch(url, {
      headers: { authorization: `Bearer ${options.token}` },
      redirect: 'manual',
    });
    if (!REDIRECT.has(response.status)) return response;
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (!location)
      throw new SlackDownloadError(label, `Slack answered HTTP ${response.status} without a Location`);
    if (hop >= MAX_REDIRECTS) throw new SlackDownloadError(label, `more than ${MAX_REDIRECTS} redirects`);
    const next = new URL(location, url);
    const refused = tokenMayGo(next, options);
    if (refused)
      throw new SlackDownloadError(
        label,
        `Slack redirected the download to ${refused}; memdoctor does not follow it`,
      );
    url = next;
  }
}

/** An HTML page where a file was expected: Slack's sign-in page, which is what a wrong token gets. */
function looksLikeHtml(head: Uint8Array): boolean {
  const start = Buffer.from(head.subarray(0, 512)).toString('utf8').trimStart().toLowerCase();
  return start.startsWith('<!doctype html') || start.startsWith('<html');
}

const LOGIN_PAGE =
  'Slack answered with its sign-in page instead of the file, so the bot token was refused. ' +
  'Check that SLACK_BOT_TOKEN belongs to this workspace and that the app has the files:read scope.';

/** Slack's chunks, or a SlackDownloadError saying how far the download got when it broke off. */
async function* received(label: string, body: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let total = 0;
  try {
    for await (const chunk of body) {
      total += chunk.length;
      yield chunk;
    }
  } catch (error) {
    if (error instanceof MemdoctorError) throw error;
    const reason = messageOf(error);
    throw new SlackDownloadError(
      label,
      `the download broke off after ${total} bytes (${reason}); nothing was diagnosed; upload the file again`,
      { cause: error },
    );
  }
}

async function* limited(
  label: string,
  body: AsyncIterable<Uint8Array>,
  maxBytes: number,
): AsyncGenerator<Uint8Array> {
  let total = 0;
  let first = true;
  for await (const chunk of received(label, body)) {
    if (first && looksLikeHtml(chunk)) throw new SlackDownloadError(label, LOGIN_PAGE);
    first = false;
    total += chunk.length;
    // Counted as the bytes arrive: Content-Length may be missing or wrong.
    if (total > maxBytes) throw new InputTooLargeError(label, maxBytes);
    yield chunk;
  }
}

/** A body's reader: bounded reads into a buffer of our own, or chunks as the body gives them. */
type BodyReader = ReadableStreamBYOBReader | ReadableStreamDefaultReader<Uint8Array>;

/**
 * Locks the body now, not at its first read. undici cancels the body of a Response that is
 * garbage-collected while its body is neither locked nor read (a FinalizationRegistry in its fetch),
 * and a download waiting for a diagnosis thread is just that: its Response is dropped once the body
 * is taken, and a collection meanwhile (likely while another large upload is read) ended the body
 * at 0 bytes, diagnosed as an empty file. A BYOB reader when reads are bounded and the body is a
 * byte stream (what fetch gives); otherwise (a test's wrapped fetch) the default reader.
 */
function lockBody(body: ReadableStream<Uint8Array>, readBytes?: number): BodyReader {
  if (readBytes)
    try {
      return body.getReader({ mode: 'byob' });
    } catch {
      // Not a byte stream: read as it comes.
    }
  return body.getReader();
}

/** The body in reads of at most `readBytes` each (a BYOB reader), or as it comes. */
async function* bodyChunks(reader: BodyReader, readBytes?: number): AsyncGenerator<Uint8Array> {
  const read =
    readBytes && reader instanceof ReadableStreamBYOBReader
      ? () => reader.read(new Uint8Array(readBytes))
      : () => (reader as ReadableStreamDefaultReader<Uint8Array>).read();
  try {
    for (;;) {
      const { done, value } = await read();
      if (done) return;
      if (value.length > 0) yield value;
    }
  } finally {
    // Stopped early (too large, the reader gave up): the connection is let go.
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/** A file's bytes as they arrive; `cancel` lets the connection go when they are not read to the end. */
export interface SlackDownload extends AsyncIterable<Uint8Array> {
  cancel(): Promise<void>;
}

/**
 * Streams a file shared in Slack with the bot token. Only the file's `url_private_download` is used,
 * only on a Slack host over https, and so is every redirect it takes; the size limit is checked before the request (the event's `size`), against
 * Content-Length, and again while streaming. Gunzip and its expanded-size limit are the engine's job.
 */
export async function downloadSlackFile(
  file: SlackFileRef,
  options: DownloadOptions,
): Promise<SlackDownload> {
  const label = file.name ?? file.id;
  if (file.size !== undefined && file.size > options.maxBytes)
    throw new InputTooLargeError(label, options.maxBytes);
  const url = fileUrl(file, options);
  const response = await request(label, url, options);
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new SlackDownloadError(label, `Slack answered HTTP ${response.status}`);
  }
  const length = Number(response.headers.get('content-length') ?? Number.NaN);
  if (length > options.maxBytes) {
    await response.body.cancel();
    throw new InputTooLargeError(label, options.maxBytes);
  }
  if ((response.headers.get('content-type') ?? '').startsWith('text/html')) {
    await response.body.cancel();
    throw new SlackDownloadError(label, LOGIN_PAGE);
  }
  const reader = lockBody(response.body, options.readBytes);
  const chunks = limited(label, bodyChunks(reader, options.readBytes), options.maxBytes);
  return {
    [Symbol.asyncIterator]: () => chunks[Symbol.asyncIterator](),
    // Never read (the engine refused it first): the body stays locked, so it is cancelled here.
    cancel: () => reader.cancel().catch(() => undefined),
  };
}
