import type { WebClient } from '@slack/web-api';
import { InputUnreadableError } from '../errors.ts';
import { type HeapDumpEvent, heapDumpEventFrom } from '../usecases/heap-dump-step.ts';
import type { StepView, WalkthroughRecord } from '../walkthrough/index.ts';
import { answerStep, notAllowedText } from './answer-flow.ts';
import type { SlackDeps } from './deps.ts';
import { admitHeapDump, readSlackHeapDump } from './diagnose.ts';
import type { SlackFileRef } from './download.ts';
import { explainFailure } from './failures.ts';
import { readingText } from './heap-dump.ts';
import { noticeView } from './views/help.ts';

/** The message whose file answers a step: where it was posted and by whom. */
export interface DumpUpload {
  channel: string;
  threadTs: string;
  user: string;
}

/** The walkthrough of the thread, waiting at a heap-dump step. */
export interface WaitingForDump {
  record: WalkthroughRecord;
  view: StepView;
}

/** What the "reading" message becomes when the dump could not answer the step. */
const STILL_WAITING = 'The step still waits for a heap dump.';

/** The dump read, in the thread: the step's answer follows it. */
function readText(source: string, summary: string): string {
  return `Read the heap dump ${source}: ${summary}`;
}

/**
 * A file uploaded where a walkthrough waits at a heap-dump step answers it: the uploader checked
 * first (a stranger's dump is not downloaded), the dump admitted against the budget and the heap
 * thread's queue, then streamed to a temporary file and analysed in the heap thread while one
 * message says it is being read. The analysis becomes the step's event and is answered as any step
 * answer is (the same on-call check, stale answers refused). A file that is not a dump, a corrupt
 * or over-budget one leaves the step waiting, and the uploader is told why.
 */
export async function answerWithDump(
  deps: SlackDeps,
  client: WebClient,
  upload: DumpUpload,
  waiting: WaitingForDump,
  file: SlackFileRef,
): Promise<void> {
  const { channel, threadTs, user } = upload;
  // Our own sentences go as they are (their mentions must work); a failure quotes the file's name, so it is escaped.
  const tell = async (text: string) => {
    await client.chat.postEphemeral({ channel, user, thread_ts: threadTs, text });
  };
  const tellFailure = async (text: string) => {
    await client.chat.postEphemeral({ channel, user, thread_ts: threadTs, ...noticeView(text) });
  };
  const owner = waiting.record.owner;
  if (!(await deps.oncall.mayAnswer(client, user, owner))) return tell(notAllowedText(owner));
  const source = file.name ?? file.id;
  try {
    admitHeapDump(deps, file);
  } catch (error) {
    return tellFailure(`${explainFailure(error).message} ${STILL_WAITING}`);
  }
  const posted = await client.chat.postMessage({
    channel,
    thread_ts: threadTs,
    ...noticeView(readingText(source)),
  });
  const log = deps.log.child({ channel, threadTs, file: file.id, walkthrough: waiting.record.id });
  // What is read takes the "reading" message's place; a refusal removes it (the uploader is told).
  const replace = async (text: string) => {
    if (posted.ts) await client.chat.update({ channel, ts: posted.ts, ...noticeView(text) });
  };
  const remove = async () => {
    if (!posted.ts) return;
    try {
      await client.chat.delete({ channel, ts: posted.ts });
    } catch (error) {
      log.warn({ err: explainFailure(error).message }, 'reading message not removed');
    }
  };
  let event: HeapDumpEvent;
  try {
    const result = await readSlackHeapDump(deps, file);
    if (!result.heap) throw new InputUnreadableError(source, 'no heap was read from it');
    event = heapDumpEventFrom(source, { heap: result.heap, findings: result.findings }, waiting.view.step);
  } catch (error) {
    const failure = explainFailure(error);
    log.warn({ code: failure.code, err: failure.message }, 'heap dump did not answer the step');
    await remove();
    return tellFailure(`${failure.message} ${STILL_WAITING}`);
  }
  await replace(readText(source, event.summary));
  await answerStep(deps, client, {
    walkthrough: waiting.record.id,
    expectedVersion: waiting.record.version,
    ...(waiting.record.current ? { step: waiting.record.current } : {}),
    event,
    user,
    thread: { channel, ts: threadTs },
    tell,
  });
}
