import type { WebClient } from '@slack/web-api';
import { rememberDiagnosis } from '../usecases/record-outcome.ts';
import type { SlackDeps } from './deps.ts';
import { admitHeapDump, diagnoseSlackHeapDump, diagnosisMessage } from './diagnose.ts';
import type { SlackFileRef } from './download.ts';
import { explainFailure } from './failures.ts';
import { withHeapReading } from './views/heap-dump.ts';
import { noticeView } from './views/help.ts';

/** The message that shared the dump: where to answer, and who asked. */
export interface DumpMessage {
  workspace: string;
  channel: string;
  ts: string;
  threadTs: string;
  user: string;
}

/** The message that stands in the thread while a dump is read; the answer replaces it. */
export function readingText(name: string): string {
  return `Reading the heap dump ${name}… This can take a few minutes for a large dump; the answer will replace this message, and memdoctor keeps answering everyone else meanwhile.`;
}

/**
 * A heap dump shared in a thread: refused at once when its announced size is over the budget or the
 * heap thread's queue is full (the caller tells the uploader); else one message says it is being read, and is replaced by the
 * answer, or by what went wrong (a corrupt or cut dump, a file that is not one).
 */
export async function answerHeapDump(
  deps: SlackDeps,
  client: WebClient,
  message: DumpMessage,
  file: SlackFileRef,
): Promise<void> {
  const source = file.name ?? file.id;
  admitHeapDump(deps, file);
  const where = { channel: message.channel, thread_ts: message.threadTs };
  const posted = await client.chat.postMessage({ ...where, ...noticeView(readingText(source)) });
  const log = deps.log.child({ channel: message.channel, threadTs: message.threadTs, file: file.id });
  const replace = (view: ReturnType<typeof noticeView>) =>
    posted.ts
      ? client.chat.update({ channel: message.channel, ts: posted.ts, ...view })
      : client.chat.postMessage({ ...where, ...view });
  try {
    const result = await diagnoseSlackHeapDump(deps, file, message.workspace);
    await replace(withHeapReading(diagnosisMessage(deps, result, message.user), result));
    await rememberDiagnosis(deps, { ...message, ts: posted.ts, result });
    log.info(
      { bytes: result.report.input.bytes, found: result.report.diagnoses.length },
      'heap dump diagnosed',
    );
  } catch (error) {
    const failure = explainFailure(error);
    log.warn({ code: failure.code, err: failure.message }, 'heap dump not diagnosed');
    await replace(noticeView(failure.message));
  }
}
