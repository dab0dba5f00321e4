import type { WebClient } from '@slack/web-api';
import { ErrorCode, MemdoctorError } from '../errors.ts';

export interface TextFile {
  channel: string;
  threadTs: string;
  filename: string;
  title: string;
  content: string;
  comment: string;
}

/** A file's bytes for a thread; `what` names it in the errors ("the transcript", "the chart"). */
export interface ThreadFile {
  channel: string;
  threadTs: string;
  filename: string;
  title: string;
  bytes: Uint8Array;
  what: string;
  comment?: string;
  /** For images: what a screen reader says (Slack's `alt_txt`). */
  altText?: string;
}

/**
 * Posts a text file into a thread with Slack's current upload flow: files.getUploadURLExternal for
 * a one-off URL, the bytes POSTed there, then files.completeUploadExternal to share it.
 * (files.upload was retired in November 2025.)
 */
export async function postTextFile(client: WebClient, file: TextFile, doFetch: typeof fetch = fetch) {
  const { content, comment, ...rest } = file;
  await postThreadFile(
    client,
    { ...rest, bytes: Buffer.from(content, 'utf8'), what: 'the transcript', comment },
    doFetch,
  );
}

/** Any file into a thread through the same three calls as postTextFile. */
export async function postThreadFile(client: WebClient, file: ThreadFile, doFetch: typeof fetch = fetch) {
  // `alt_txt` is the parameter Slack documents; the client's type calls it alt_text, so it goes as data.
  const alt: Record<string, string> = file.altText ? { alt_txt: file.altText } : {};
  const target = await client.files.getUploadURLExternal({
    filename: file.filename,
    length: file.bytes.length,
    ...alt,
  });
  if (!target.upload_url || !target.file_id)
    throw new MemdoctorError(ErrorCode.Internal, `Slack gave no upload URL for ${file.what}; try again.`);
  const sent = await doFetch(target.upload_url, { method: 'POST', body: file.bytes });
  if (!sent.ok)
    throw new MemdoctorError(ErrorCode.Internal, `uploading ${file.what} failed with HTTP ${sent.status}`);
  await client.files.completeUploadExternal({
    files: [{ id: target.file_id, title: file.title }],
    channel_id: file.channel,
    thread_ts: file.threadTs,
    ...(file.comment !== undefined ? { initial_comment: file.comment } : {}),
  });
}
