import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WebClient } from '@slack/web-api';
import {
  type DiagnosisInput,
  type DiagnosisResult,
  isHeapDumpRefusal,
  namedLikeHeapDump,
} from '../diagnosis/index.ts';
import { StoreUnavailableError } from '../errors.ts';
import type { CaseWhere } from '../usecases/add-to-case.ts';
import { rememberDiagnosis } from '../usecases/record-outcome.ts';
import { answerStep } from './answer-flow.ts';
import { caseAnswerTs, caseWhere, editCaseAnswer, threadKey } from './case-thread.ts';
import { postCharts } from './charts.ts';
import type { SlackDeps } from './deps.ts';
import {
  addSlackFileToCase,
  diagnoseSlackFile,
  diagnoseSlackFileKept,
  diagnosisMessage,
  readInputForCase,
  readSlackFileForCase,
  readSlackFileText,
  writeReadToCase,
} from './diagnose.ts';
import type { SlackFileRef } from './download.ts';
import { answerWithDump } from './dump-step.ts';
import { explainFailure, storeDownText } from './failures.ts';
import { answerHeapDump } from './heap-dump.ts';
import { threadTurns } from './thread-turns.ts';
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

/** Where the Slack app keeps the cases of threads, and their limits. */
type Cases = NonNullable<SlackDeps['cases']>;

/** Posts today's answer for a file into the thread; its ts, or undefined when Slack gave none. */
async function postAnswer(
  deps: SlackDeps,
  client: WebClient,
  message: FileMessage,
  answered: { file: SlackFileRef; result: DiagnosisResult },
): Promise<string | undefined> {
  const { file, result } = answered;
  const posted = await client.chat.postMessage({
    channel: message.channel,
    thread_ts: message.threadTs,
    ...diagnosisMessage(deps, result, message.user),
  });
  await rememberDiagnosis(deps, { ...message, ts: posted.ts, result });
  await postCharts(deps, client, [result.chart], { channel: message.channel, threadTs: message.threadTs });
  deps.log.info(
    {
      channel: message.channel,
      threadTs: message.threadTs,
      file: file.id,
      bytes: result.report.input.bytes,
      found: result.report.diagnoses.length,
    },
    'file diagnosed',
  );
  return posted.ts;
}

/** Today's answer for one file, where the thread keeps no case. */
async function diagnoseAlone(deps: SlackDeps, client: WebClient, message: FileMessage, file: SlackFileRef) {
  const result = await diagnoseSlackFile(deps, file, undefined, message.workspace);
  await postAnswer(deps, client, message, { file, result });
}

/**
 * The first file read for its case, from the bytes its answer read (or downloaded again when they
 * were not kept); undefined (logged) when it cannot be read: the answer still goes out.
 */
async function readFirstForCase(
  deps: SlackDeps & { cases: Cases },
  where: CaseWhere,
  file: SlackFileRef,
  again: DiagnosisInput | undefined,
) {
  const source = file.name ?? file.id;
  try {
    const read = again
      ? await readInputForCase(deps, again, where)
      : await readSlackFileForCase(deps, file, where);
    return { source, read };
  } catch (error) {
    deps.log.warn(
      { channel: where.conversation, file: file.id, err: explainFailure(error).message },
      'case not started',
    );
    return undefined;
  }
}

/** How long a claim on a thread's first answer lasts: a replica that stops while it holds one frees it. */
const ANSWER_CLAIM_SECONDS = 30;
/** How long a replica that lost the claim waits for the winner's answer before posting its own. */
const CLAIMANT_WAIT_MS = 10_000;
const CLAIMANT_POLL_MS = 200;
/** Each app (by its case store) as the owner of its claims: its own later turns may claim again. */
const replicaIds = new WeakMap<object, string>();

function replicaOf(store: object): string {
  const id = replicaIds.get(store) ?? `${hostname()}:${process.pid}:${randomUUID()}`;
  replicaIds.set(store, id);
  return id;
}

/**
 * Undefined when this replica may post the thread's first answer (it claimed it, or the claim could
 * not be read: better two answers than none). When another replica holds the claim, the ts of the
 * answer it posts, once its case names it; undefined if none appears in CLAIMANT_WAIT_MS (it stopped).
 */
async function answerOfClaimant(deps: SlackDeps & { cases: Cases }, where: CaseWhere) {
  try {
    if (await deps.cases.store.claimAnswer(where, replicaOf(deps.cases.store), ANSWER_CLAIM_SECONDS))
      return undefined;
  } catch (error) {
    deps.log.warn(
      { channel: where.conversation, err: explainFailure(error).message },
      'answer claim unavailable',
    );
    return undefined;
  }
  for (let waited = 0; waited < CLAIMANT_WAIT_MS; waited += CLAIMANT_POLL_MS) {
    await sleep(CLAIMANT_POLL_MS);
    const theirs = await caseAnswerTs(deps, where);
    if (theirs) return theirs;
  }
  deps.log.warn({ channel: where.conversation, thread: where.thread }, 'claimed answer never posted');
  return undefined;
}

/**
 * The first file of a thread: today's answer, and its facts start the thread's case, from one
 * download. When another replica answered the thread meanwhile, or claimed its first answer and
 * posts it, the file is added to that case instead. Returns the ts of the thread's case answer, or undefined when no case could start.
 */
async function startCase(
  deps: SlackDeps & { cases: Cases },
  client: WebClient,
  message: FileMessage,
  file: SlackFileRef,
): Promise<string | undefined> {
  const log = deps.log.child({ channel: message.channel, threadTs: message.threadTs });
  const where = caseWhere(message);
  return diagnoseSlackFileKept(deps, file, message.workspace, async (result, again) => {
    // Read before anything is posted, so the check below and the write after posting are close.
    const read = await readFirstForCase(deps, where, file, again);
    if (!read) {
      await postAnswer(deps, client, message, { file, result });
      return undefined;
    }
    const won = (await caseAnswerTs(deps, where)) ?? (await answerOfClaimant(deps, where));
    if (won) {
      const answer = await writeReadToCase(deps, read, where);
      await editCaseAnswer(deps, client, { where, answerTs: won, user: message.user, answer });
      return won;
    }
    const answerTs = await postAnswer(deps, client, message, { file, result });
    if (!answerTs) return undefined;
    // The answer is posted: a case that cannot be started is logged, and the next file is diagnosed alone.
    try {
      await writeReadToCase(deps, read, where, answerTs);
      log.info({ file: file.id, answerTs }, 'case started');
      return answerTs;
    } catch (error) {
      log.warn({ file: file.id, err: explainFailure(error).message }, 'case not started');
      return undefined;
    }
  });
}

/** One file into the thread: added to its case (the answer edited), or the case's first file. */
async function readIntoThread(
  deps: SlackDeps & { cases: Cases },
  client: WebClient,
  message: FileMessage,
  file: SlackFileRef,
): Promise<void> {
  const where = caseWhere(message);
  const answerTs = await caseAnswerTs(deps, where);
  if (!answerTs) {
    await startCase(deps, client, message, file);
    return;
  }
  const answer = await addSlackFileToCase(deps, file, where);
  await editCaseAnswer(deps, client, { where, answerTs, user: message.user, answer });
}

/**
 * A heap dump (named .hprof, or found to be one by the engine under another name: it is then
 * downloaded again) is answered on its own, not added to the thread's case; anything else as a log.
 */
async function throughHeapRoute(
  deps: SlackDeps,
  client: WebClient,
  message: FileMessage,
  file: SlackFileRef,
  asLog: (file: SlackFileRef) => Promise<void>,
): Promise<void> {
  if (namedLikeHeapDump(file.name ?? '')) return answerHeapDump(deps, client, message, file);
  try {
    await asLog(file);
  } catch (error) {
    if (!isHeapDumpRefusal(error)) throw error;
    await answerHeapDump(deps, client, message, file);
  }
}

/**
 * Each file of the message, in order. With cases, the files of one thread take one turn at a time
 * (this message's and any other message's arriving meanwhile), so files dropped together end in
 * the thread's one answer: the first file's, edited for each file after it.
 */
async function diagnoseEach(deps: SlackDeps, client: WebClient, message: FileMessage) {
  const log = deps.log.child({ channel: message.channel, threadTs: message.threadTs });
  const cases = deps.cases;
  const asLog = async (file: SlackFileRef) =>
    cases
      ? readIntoThread({ ...deps, cases }, client, message, file)
      : diagnoseAlone(deps, client, message, file);
  const one = (file: SlackFileRef) => throughHeapRoute(deps, client, message, file, asLog);
  const each = async () => {
    for (const file of message.files.slice(0, MAX_FILES_PER_MESSAGE)) {
      try {
        await one(file);
      } catch (error) {
        const failure = explainFailure(error);
        log.warn({ file: file.id, code: failure.code, err: failure.message }, 'file not diagnosed');
        await tellUploader(client, message, failure.message);
      }
    }
  };
  if (!cases) return each();
  await threadTurns(cases.store).take(threadKey(message), each);
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

/** A walkthrough step in the thread that waits for pasted output or a heap dump. */
type WaitingStep = NonNullable<Awaited<ReturnType<typeof waitingIn>>>;

/**
 * The step in the message's thread that waits for output or a heap dump, if any; `unknown` when Redis cannot say
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
    return await waitingIn(deps, message.workspace, thread, ['output', 'dump']);
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
 * Handles the files of a message in a thread: when a walkthrough there waits for a paste or a heap
 * dump, the first file answers it (a dump read in the heap thread, dump-step.ts); otherwise each file is diagnosed (when `diagnose` allows). A message can reach
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
  if (waiting.view.input === 'dump') return answerWithDump(deps, client, message, waiting, file);
  await answerWithFile(deps, client, message, waiting, file);
}
