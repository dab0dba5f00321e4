import type { WebClient } from '@slack/web-api';
import { rememberDiagnosis } from '../usecases/record-outcome.ts';
import { postCharts } from './charts.ts';
import type { SlackDeps } from './deps.ts';
import { diagnosePaste, diagnoseSlackFileOrDump, diagnosisMessage } from './diagnose.ts';
import { explainFailure } from './failures.ts';
import { messageText, type SlackMessage } from './message-text.ts';
import { MAX_FILES_PER_MESSAGE } from './shared-files.ts';
import { withHeapReading } from './views/heap-dump.ts';

/** Where a message's diagnosis goes, and how to tell the person asking when it cannot be made. */
export interface DiagnoseMessageTarget {
  workspace: string;
  user: string;
  channel: string;
  /** Set: the diagnosis is a reply in this thread. */
  threadTs?: string;
  tell(text: string): Promise<void>;
}

/** Nothing to read in the message: said to the person who asked. */
export const NOTHING_TO_DIAGNOSE =
  'That message has no text or file memdoctor can read. Share the log as a file, or paste the error.';

/**
 * Diagnoses someone's message (a colleague's paste, an alert bot's post, a DM): its files through
 * the usual download path when it has any, else its text. Each diagnosis is posted to the target;
 * a failure is told to the person asking.
 */
export async function diagnoseMessage(
  deps: SlackDeps,
  client: WebClient,
  message: SlackMessage,
  target: DiagnoseMessageTarget,
): Promise<void> {
  const files = (message.files ?? []).slice(0, MAX_FILES_PER_MESSAGE);
  const text = messageText(message);
  if (files.length === 0 && text === '') return target.tell(NOTHING_TO_DIAGNOSE);
  const where = { channel: target.channel, ...(target.threadTs ? { thread_ts: target.threadTs } : {}) };
  const runs =
    files.length > 0
      ? files.map((f) => () => diagnoseSlackFileOrDump(deps, f, target.workspace))
      : [() => diagnosePaste(deps, text, undefined, target.workspace)];
  for (const run of runs) {
    try {
      const result = await run();
      const posted = await client.chat.postMessage({
        ...where,
        // A heap dump's lines besides those the answer cites (nothing changes for a log).
        ...withHeapReading(diagnosisMessage(deps, result, target.user), result),
      });
      await rememberDiagnosis(deps, { ...target, ts: posted.ts, result });
      const threadTs = target.threadTs ?? posted.ts;
      if (threadTs) await postCharts(deps, client, [result.chart], { channel: target.channel, threadTs });
    } catch (error) {
      const failure = explainFailure(error);
      deps.log.warn(
        { channel: target.channel, code: failure.code, err: failure.message },
        'message not diagnosed',
      );
      await target.tell(failure.message);
    }
  }
}
