import { z } from 'zod';
import { InputTooLargeError, SlackDownloadError } from '../errors.ts';

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
  fetch?: typeof fetch;
}

/** Slack's own file hosts; a token is never sent anywhere else. */
export const SLACK_FILE_HOSTS = ['files.slack.com', 'files.slack-gov.com'];

/** The hosts a download may use: Slack's file hosts plus the host of SLACK_API_URL (GovSlack, proxy, test). */
export function allowedFileHosts(slackApiUrl: string | undefined): string[] {
  const hosts = [...SLACK_FILE_HOSTS];
  if (slackApiUrl) hosts.push(new URL(slackApiUrl).host);
  return hosts;
}

function fileUrl(file: SlackFileRef, allowedHosts: readonly string[]): URL {
  const label = file.name ?? file.id;
  if (!file.url_private_download) throw new SlackDownloadError(label, 'the event carries no download URL');
  const url = new URL(file.url_private_download);
  if (!allowedHosts.includes(url.host))
    throw new SlackDownloadError(label, `the URL points at ${url.host}, which is not a Slack file host`);
  return url;
}

/** An HTML page where a file was expected: Slack's sign-in page, which is what a wrong token gets. */
function looksLikeHtml(head: Uint8Array): boolean {
  const start = Buffer.from(head.subarray(0, 512)).toString('utf8').trimStart().toLowerCase();
  return start.startsWith('<!doctype html') || start.startsWith('<html');
}

const LOGIN_PAGE =
  'Slack answered with its sign-in page instead of the file, so the bot token was refused. ' +
  'Check that SLACK_BOT_TOKEN belongs to this workspace and that the app has the files:read scope.';

async function* limited(
  label: string,
  body: AsyncIterable<Uint8Array>,
  maxBytes: number,
): AsyncGenerator<Uint8Array> {
  let total = 0;
  let first = true;
  for await (const chunk of body) {
    if (first && looksLikeHtml(chunk)) throw new SlackDownloadError(label, LOGIN_PAGE);
    first = false;
    total += chunk.length;
    // Counted as the bytes arrive: Content-Length may be missing or wrong.
    if (total > maxBytes) throw new InputTooLargeError(label, maxBytes);
    yield chunk;
  }
}

/**
 * Streams a file shared in Slack with the bot token. Only the file's `url_private_download` is used,
 * only on a Slack host; the size limit is checked before the request (the event's `size`), against
 * Content-Length, and again while streaming. Gunzip and its expanded-size limit are the engine's job.
 */
export async function downloadSlackFile(
  file: SlackFileRef,
  options: DownloadOptions,
): Promise<AsyncIterable<Uint8Array>> {
  const label = file.name ?? file.id;
  if (file.size !== undefined && file.size > options.maxBytes)
    throw new InputTooLargeError(label, options.maxBytes);
  const url = fileUrl(file, options.allowedHosts);
  const doFetch = options.fetch ?? fetch;
  const response = await doFetch(url, { headers: { authorization: `Bearer ${options.token}` } });
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
  return limited(label, response.body as AsyncIterable<Uint8Array>, options.maxBytes);
}
