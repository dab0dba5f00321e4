import type { WebClient } from '@slack/web-api';
import { StoreUnavailableError } from '../errors.ts';
import { rememberDiagnosis } from '../usecases/record-outcome.ts';
import { answerStep } from './answer-flow.ts';
import { caseAnswerTs, caseWhere, editCaseAnswer } from './case-thread.ts';
import type { SlackDeps } from './deps.ts';
import { addSlackFileToCase, diagnoseSlackFile, diagnosisMessage, readSlackFileText } from './diagnose.ts';
import type { SlackFileRef } from './download.ts';
import { explainFailure, storeDownText } from './failures.ts';
import { noticeView } from './views/help.ts';
import { waitingIn } from './waiting.ts';

/** A message that carries files: where it was posted and by whom. */
export interface FileMessage {
  workspace: string;
  channel: string;
  ts: string;
  threadTs: string;
  user: string;
  files: readonly SlackFileRef[];
}

/** More files than this in one message are not diagnosed: one reply each would flood the thread. */
export const MAX_FILES_PER_MESSAGE = 3;

async function tellUploader(client: WebClient, message: FileMessage, text: string) {
  await client.chat.postEphemeral({
    channel: message.channel,
    user: message.user,
    thread_ts: message.threadTs,
    ...noticeView(text),
  });
}

/** Today's answer for one file (a new message in the thread); its facts then start the thread's case. */
async function diagnoseAlone(deps: SlackDeps, client: WebClient, message: FileMessage, file: SlackFileRef) {
  const log = deps.log.child({ channel: message.channel, threadTs: message.threadTs });
  const result = await diagnoseSlackFile(deps, file, undefined, message.workspace);
  const { report } = result;
  const view = diagnosisMessage(deps, result, message.user);
  const posted = await client.chat.postMessage({
    channel: message.channel,
    thread_ts: message.threadTs,
    ...view,
  });
  await rememberDiagnosis(deps, { ...message, ts: posted.ts, result });
  log.info({ file: file.id, bytes: report.input.bytes, found: report.diagnoses.length }, 'file diagnosed');
  if (!deps.cases || !posted.ts) return;
  const cases = deps.cases;
  // The answer is posted: a case that cannot be started is logged, and the next file is diagnosed alone.
  try {
    await addSlackFileToCase({ ...deps, cases }, file, caseWhere(message), posted.ts);
    log.info({ file: file.id, answerTs: posted.ts }, 'case started');
  } catch (error) {
    log.warn({ file: file.id, err: explainFailure(error).message }, 'case not started');
  }
}

async function diagnoseEach(deps: SlackDeps, client: WebClient, message: FileMessage) {
  const log = deps.log.child({ channel: message.channel, threadTs: message.threadTs });
  for (const file of message.files.slice(0, MAX_FILES_PER_MESSAGE)) {
    try {
      const answerTs = await caseAnswerTs(deps, caseWhere(message));
      const cases = deps.cases;
      if (answerTs && cases) {
        const answer = await addSlackFileToCase({ ...deps, cases }, file, caseWhere(message));
        await editCaseAnswer(deps, client, {
          where: caseWhere(message),
          answerTs,
          user: message.user,
          answer,
        });
      } else await diagnoseAlone(deps, client, message, file);
    } catch (error) {
      const failure = explainFailure(error);
      log.warn({ file: file.id, code: failure.code, err: failure.message }, 'file not diagnosed');
      await tellUploader(client, message, failure.message);
    }
  }
}

/** A message can reach the bot twice; the first delivery claims it. Without Redis, both go ahead. */
async function firstDelivery(deps: SlackDeps, message: FileMessage): Promise<boolean> {
  try {
    return await deps.dedupe.firstTime(`files:${message.channel}:${message.ts}`);
  } catch (error) {
    deps.log.warn({ channel: message.channel, err: explainFailure(error).detail }, 'file claim unavailable');
    return true;
  }
}

/** A walkthrough step in the thread that waits for pasted output. */
type WaitingStep = NonNullable<Awaited<ReturnType<typeof waitingIn>>>;

/**
 * The step in the message's thread that waits for output, if any; `unknown` when Redis cannot say
 * (the uploader is told, when files are diagnosed here, that the file was not used).
 */
async function stepWaitingFor(
  deps: SlackDeps,
  client: WebClient,
  message: FileMessage,
  diagnose: boolean,
): Promise<WaitingStep | undefined | 'unknown'> {
  if (message.threadTs === message.ts) return undefined;
  const thread = { channel: message.channel, ts: message.threadTs };
  try {
    return await waitingIn(deps, message.workspace, thread, ['output']);
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    deps.log.warn({ channel: message.channel, code: error.code, err: error.message }, 'shared file not read');
    const outcome =
      'this file was not used: memdoctor cannot tell whether a walkthrough step here waits for it';
    if (diagnose) await tellUploader(client, message, storeDownText(error, outcome));
    return 'unknown';
  }
}

/** The file's text answers the waiting step; a file that cannot be read is told to the uploader. */
async function answerWithFile(
  deps: SlackDeps,
  client: WebClient,
  message: FileMessage,
  waiting: WaitingStep,
  file: SlackFileRef,
): Promise<void> {
  let text: string;
  try {
    text = await readSlackFileText(deps, file);
  } catch (error) {
    return tellUploader(client, message, explainFailure(error).message);
  }
  await answerStep(deps, client, {
    walkthrough: waiting.record.id,
    expectedVersion: waiting.record.version,
    ...(waiting.record.current ? { step: waiting.record.current } : {}),
    event: { type: 'paste', text, step: waiting.view.step },
    user: message.user,
    thread: { channel: message.channel, ts: message.threadTs },
    tell: (t) => tellUploader(client, message, t),
  });
}

/**
 * Handles the files of a message in a thread: when a walkthrough there waits for a paste, the first
 * file answers it; otherwise each file is diagnosed (when `diagnose` allows). A message can reach
 * the bot twice (as `message/file_share` and as `app_mention`), so it is claimed once by its ts.
 * When Redis is unavailable the uploader in a memdoctor thread is told so, and the file is not used.
 */
export async function handleSharedFiles(
  deps: SlackDeps,
  client: WebClient,
  message: FileMessage,
  diagnose: boolean,
): Promise<void> {
  const waiting = await stepWaitingFor(deps, client, message, diagnose);
  if (waiting === 'unknown' || (!waiting && !diagnose)) return;
  if (!(await firstDelivery(deps, message))) return;
  const file = message.files[0];
  if (!waiting || !file) return diagnoseEach(deps, client, message);
  await answerWithFile(deps, client, message, waiting, file);
}
