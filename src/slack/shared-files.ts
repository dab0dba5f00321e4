import type { WebClient } from '@slack/web-api';
import type { SlackDeps } from './deps.ts';
import { diagnoseSlackFile } from './diagnose.ts';
import type { SlackFileRef } from './download.ts';
import { explainFailure } from './failures.ts';
import { diagnosisView } from './views/diagnosis.ts';
import { noticeView } from './views/help.ts';

/** A message that carries files: where it was posted and by whom. */
export interface FileMessage {
  channel: string;
  ts: string;
  threadTs: string;
  user: string;
  files: readonly SlackFileRef[];
}

/** More files than this in one message are not diagnosed: one reply each would flood the thread. */
export const MAX_FILES_PER_MESSAGE = 3;

/**
 * Diagnoses each file of a message and replies in its thread. A message can reach the bot twice
 * (as `message/file_share` and as `app_mention`), so it is claimed once by channel and ts.
 * A file that fails (too big, not text, wrong token) gets a private note to whoever shared it.
 */
export async function diagnoseSharedFiles(deps: SlackDeps, client: WebClient, message: FileMessage) {
  if (!(await deps.dedupe.firstTime(`files:${message.channel}:${message.ts}`))) return;
  const log = deps.log.child({ channel: message.channel, threadTs: message.threadTs });
  for (const file of message.files.slice(0, MAX_FILES_PER_MESSAGE)) {
    try {
      const report = await diagnoseSlackFile(deps, file);
      const view = diagnosisView(report, deps.playbooks, message.user);
      await client.chat.postMessage({ channel: message.channel, thread_ts: message.threadTs, ...view });
      log.info(
        { file: file.id, bytes: report.input.bytes, found: report.diagnoses.length },
        'file diagnosed',
      );
    } catch (error) {
      const failure = explainFailure(error);
      log.warn({ file: file.id, code: failure.code, err: failure.message }, 'file not diagnosed');
      await client.chat.postEphemeral({
        channel: message.channel,
        user: message.user,
        thread_ts: message.threadTs,
        ...noticeView(failure.message),
      });
    }
  }
}
