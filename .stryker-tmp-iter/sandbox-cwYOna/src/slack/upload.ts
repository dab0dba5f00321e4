// @ts-nocheck
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

/**
 * Posts a text file into a thread with Slack's current upload flow: files.getUploadURLExternal for
 * a one-off URL, the bytes POSTed there, then files.completeUploadExternal to share it.
 * (files.upload was retired in November 2025.)
 */
export async function postTextFile(client: WebClient, file: TextFile, doFetch: typeof fetch = fetch) {
  const bytes = Buffer.from(file.content, 'utf8');
  const target = await client.files.getUploadURLExternal({ filename: file.filename, length: bytes.length });
  if (!target.upload_url || !target.file_id)
    throw new MemdoctorError(ErrorCode.Internal, 'Slack gave no upload URL for the transcript; try again.');
  const sent = await doFetch(target.upload_url, { method: 'POST', body: bytes });
  if (!sent.ok)
    throw new MemdoctorError(ErrorCode.Internal, `uploading the transcript failed with HTTP ${sent.status}`);
  await client.files.completeUploadExternal({
    files: [{ id: target.file_id, title: file.title }],
    channel_id: file.channel,
    thread_ts: file.threadTs,
    initial_comment: file.comment,
  });
}
