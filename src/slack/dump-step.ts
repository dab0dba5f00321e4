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

/** Tells the uploader only: our own sentences as they are (their mentions work), a failure escaped. */
function toUploader(client: WebClient, upload: DumpUpload) {
  const { channel, user, threadTs } = upload;
  return {
    tell: async (text: string) => {
      await client.chat.postEphemeral({ channel, user, thread_ts: threadTs, text });
    },
    // A failure quotes the file's name: escaped, it cannot mention or link.
    failure: async (text: string) => {
      await client.chat.postEphemeral({ channel, user, thread_ts: threadTs, ...noticeView(text) });
    },
  };
}

/** The message that says the dump is being read: replaced by what was read, or removed on a refusal. */
async function readingMessage(deps: SlackDeps, client: WebClient, upload: DumpUpload, source: string) {
  const { channel, threadTs } = upload;
  const posted = await client.chat.postMessage({
    channel,
    thread_ts: threadTs,
    ...noticeView(readingText(source)),
  });
  return {
    replace: async (text: string) => {
      if (posted.ts) await client.chat.update({ channel, ts: posted.ts, ...noticeView(text) });
    },
    remove: async () => {
      if (!posted.ts) return;
      try {
        await client.chat.delete({ channel, ts: posted.ts });
      } catch (error) {
        deps.log.warn({ channel, err: explainFailure(error).message }, 'reading message not removed');
      }
    },
  };
}

/** The uploaded dump read in the heap thread (from a temporary file) into the step's event. */
async function dumpEvent(deps: SlackDeps, file: SlackFileRef, step: string): Promise<HeapDumpEvent> {
  const source = file.name ?? file.id;
  const result = await readSlackHeapDump(deps, file);
  if (!result.heap) throw new InputUnreadableError(source, 'no heap was read from it');
  return heapDumpEventFrom(source, { heap: result.heap, findings: result.findings }, step);
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
  const told = toUploader(client, upload);
  const { record, view } = waiting;
  if (!(await deps.oncall.mayAnswer(client, upload.user, record.owner)))
    return told.tell(notAllowedText(record.owner));
  try {
    admitHeapDump(deps, file);
  } catch (error) {
    return told.failure(`${explainFailure(error).message} ${STILL_WAITING}`);
  }
  const reading = await readingMessage(deps, client, upload, file.name ?? file.id);
  let event: HeapDumpEvent;
  try {
    event = await dumpEvent(deps, file, view.step);
  } catch (error) {
    const failure = explainFailure(error);
    deps.log.warn(
      { walkthrough: record.id, file: file.id, code: failure.code, err: failure.message },
      'heap dump did not answer the step',
    );
    await reading.remove();
    return told.failure(`${failure.message} ${STILL_WAITING}`);
  }
  await reading.replace(readText(event.source, event.summary));
  await answerStep(deps, client, {
    walkthrough: record.id,
    expectedVersion: record.version,
    ...(record.current ? { step: record.current } : {}),
    event,
    user: upload.user,
    thread: { channel: upload.channel, ts: upload.threadTs },
    tell: told.tell,
  });
}
