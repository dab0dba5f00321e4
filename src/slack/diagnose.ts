import {
  checkHeapDumpUpload,
  type DiagnosisInput,
  type DiagnosisResult,
  diagnose,
  diagnoseHeapDumpUpload,
  heapDumpDownloadLimit,
  isHeapDumpRefusal,
  namedLikeHeapDump,
  walkthroughStart,
} from '../diagnosis/index.ts';
import { ErrorCode, MemdoctorError } from '../errors.ts';
import {
  addReadToCase,
  addToCase,
  type CaseAnswer,
  type CaseContext,
  type CaseWhere,
  type ReadInput,
  readForCase,
} from '../usecases/add-to-case.ts';
import { readPasteText } from '../usecases/parse-dump.ts';
import { countDiagnosis } from '../usecases/record-outcome.ts';
import type { EngineHint } from '../usecases/types.ts';
import type { SlackDeps } from './deps.ts';
import { downloadSlackFile, type SlackDownload, type SlackFileRef } from './download.ts';
import { InflightBusyError, STREAM_PIECE_BYTES } from './inflight.ts';
import type { MessageView } from './views/blocks.ts';
import { diagnosisView } from './views/diagnosis.ts';

/** How much of a download is read: at most `maxBytes`. */
interface DownloadOptions {
  maxBytes?: number;
}

/** The parts of SlackDeps a diagnosis uses. */
export type DiagnoseDeps = Pick<SlackDeps, 'settings' | 'playbooks' | 'fetch' | 'assist' | 'outcomes'> &
  Partial<Pick<SlackDeps, 'log' | 'engines' | 'metrics' | 'acks' | 'inflight' | 'cases' | 'heapDumps'>>;

/** A refusal for memory is counted by its reason; every error goes on to the caller. */
function countRefusal(deps: DiagnoseDeps, error: unknown): never {
  if (error instanceof InflightBusyError) deps.metrics?.refusals.inc({ reason: 'memory' });
  throw error;
}

/**
 * Runs `work` within the in-flight byte cap when there is one, holding `bytes` throughout; let in
 * only while what is held stays under `ceiling` (the whole cap unless given).
 */
async function withinCap<T>(
  deps: DiagnoseDeps,
  bytes: number,
  work: () => Promise<T>,
  ceiling?: number,
): Promise<T> {
  if (!deps.inflight) return work();
  return deps.inflight.hold(bytes, work, ceiling).catch((error: unknown) => countRefusal(deps, error));
}

/**
 * A download, what to tell when the reader is done with bytes of it, and how to count more bytes
 * kept beside it if they fit now (none of these without a cap).
 */
type Counted = {
  chunks: AsyncIterable<Uint8Array>;
  onRead?: (bytes: number) => void;
  tryTake?: (bytes: number) => boolean;
};

/**
 * Runs `work` over a file's download, each chunk counted against the in-flight cap from when it is
 * in hand until `onRead` says the reader is done with it (or `work` ends): the cap counts the bytes
 * actually held, never the file's size.
 */
async function withDownload<T>(
  deps: DiagnoseDeps,
  file: SlackFileRef,
  work: (download: Counted) => Promise<T>,
  { maxBytes = deps.settings.maxUploadBytes }: DownloadOptions = {},
): Promise<T> {
  const share = deps.inflight?.stream();
  let chunks: SlackDownload | undefined;
  try {
    chunks = await download(deps, file, maxBytes);
    const counted = share
      ? { chunks: share.count(chunks), onRead: share.release, tryTake: share.tryTake }
      : { chunks };
    return await work(counted);
  } catch (error) {
    return countRefusal(deps, error);
  } finally {
    // A download the work did not read to its end (refused as busy before reading) is let go now.
    await chunks?.cancel();
    share?.close();
  }
}

function download(deps: DiagnoseDeps, file: SlackFileRef, maxBytes: number) {
  return downloadSlackFile(file, {
    token: deps.settings.botToken,
    maxBytes,
    allowedHosts: deps.settings.fileHosts,
    allowHttpLoopback: deps.settings.allowHttpLoopback === true,
    // Reads no larger than the pieces the cap counts, so what a read brings is what is counted.
    readBytes: deps.inflight?.pieceBytes ?? STREAM_PIECE_BYTES,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  });
}

/** The use case with Slack's limits and workspace; its notes go to the log (the channel sees the result). */
async function run(
  deps: DiagnoseDeps,
  input: DiagnosisInput,
  engine: EngineHint | undefined,
  workspace: string,
): Promise<DiagnosisResult> {
  const { playbooks, assist, engines } = deps;
  const work = () =>
    diagnose(
      {
        input,
        workspace,
        limits: { maxBytes: deps.settings.maxExpandedBytes },
        ...(engine ? { engine } : {}),
      },
      {
        playbooks,
        ...(assist ? { assist } : {}),
        ...(engines ? { offload: (job) => engines.run(job) } : {}),
      },
    );
  const result = await (deps.metrics ? deps.metrics.timeDiagnosis(work) : work());
  // Rendering and posting the result wait for the acks of requests that arrived meanwhile.
  await deps.acks?.settled();
  for (const note of result.notes) deps.log?.info({ source: result.report.source, note }, 'diagnosis note');
  await countDiagnosis(deps, workspace, result);
  return result;
}

/** Diagnoses pasted text (slash command, modal) with the configured expanded-size limit. */
export function diagnosePaste(
  deps: DiagnoseDeps,
  text: string,
  engine?: EngineHint,
  workspace = 'slack',
): Promise<DiagnosisResult> {
  const bytes = Buffer.byteLength(text);
  const input = { source: 'paste', text };
  if (!deps.engines || !deps.inflight)
    return withinCap(deps, bytes, () => run(deps, input, engine, workspace));
  // With the pool, the paste is in memory while it waits for a thread too, so it counts from now; but
  // waiting pastes take no more than half the cap, so the other half stays for the inputs being read.
  return withinCap(deps, bytes, () => run(deps, input, engine, workspace), deps.inflight.capBytes / 2);
}

/**
 * Downloads a shared file with the bot token and diagnoses it as it streams: the download limit
 * applies to the bytes fetched, the expanded limit to the text after gunzip, and the in-flight cap
 * to the chunks in hand (withDownload).
 */
export function diagnoseSlackFile(
  deps: DiagnoseDeps,
  file: SlackFileRef,
  engine?: EngineHint,
  workspace = 'slack',
): Promise<DiagnosisResult> {
  const source = file.name ?? file.id;
  return withDownload(deps, file, (counted) => run(deps, { source, ...counted }, engine, workspace));
}

/**
 * Downloads a heap dump to a temporary file as it streams (each chunk leaves the in-flight cap once
 * it is on disk) and diagnoses it in the heap thread within MEMDOCTOR_HEAP_DUMP_BUDGET; a dump
 * announced over the budget is refused before the download. Its size is bounded by the budget, not
 * by MEMDOCTOR_MAX_UPLOAD_BYTES: a dump cannot be cut to the part around the failure.
 */
export async function diagnoseSlackHeapDump(
  deps: DiagnoseDeps,
  file: SlackFileRef,
  workspace = 'slack',
): Promise<DiagnosisResult> {
  const result = await readSlackHeapDump(deps, file);
  await deps.acks?.settled();
  await countDiagnosis(deps, workspace, result);
  return result;
}

/** Others' dumps fill the heap thread's queue: this one is not downloaded. */
export const HEAP_DUMPS_BUSY =
  'memdoctor is reading other heap dumps (one at a time, several already waiting). Share this one again in a few minutes.';

/**
 * Refuses a dump before anything of it is downloaded: announced over the budget (the message says
 * what it needs), or the heap thread's queue full.
 */
export function admitHeapDump(deps: DiagnoseDeps, file: SlackFileRef): void {
  const budget = deps.heapDumps?.budgetBytes;
  const announced = file.size !== undefined ? { announcedBytes: file.size } : {};
  checkHeapDumpUpload(
    { source: file.name ?? file.id, ...announced },
    budget !== undefined ? { heapDumpBudget: budget } : {},
  );
  if (deps.heapDumps?.full?.()) throw new MemdoctorError(ErrorCode.Internal, HEAP_DUMPS_BUSY);
}

/**
 * A heap dump's analysis (diagnoseSlackHeapDump without counting it as a diagnosis): what a
 * walkthrough step that takes a dump is answered from. The caller has admitted the dump
 * (admitHeapDump), before it told anyone the dump is being read.
 */
export async function readSlackHeapDump(deps: DiagnoseDeps, file: SlackFileRef): Promise<DiagnosisResult> {
  const source = file.name ?? file.id;
  const budget = deps.heapDumps?.budgetBytes;
  const offload = deps.heapDumps?.run;
  const context = {
    playbooks: deps.playbooks,
    ...(budget !== undefined ? { heapDumpBudget: budget } : {}),
    ...(offload ? { heapOffload: offload } : {}),
  };
  const announced = file.size !== undefined ? { announcedBytes: file.size } : {};
  const limit = budget !== undefined ? heapDumpDownloadLimit(budget) : deps.settings.maxUploadBytes;
  return withDownload(
    deps,
    file,
    ({ chunks, onRead }) => {
      const work = () =>
        diagnoseHeapDumpUpload({ source, chunks, ...(onRead ? { onRead } : {}), ...announced }, context);
      return deps.metrics ? deps.metrics.timeDiagnosis(work) : work();
    },
    { maxBytes: limit },
  );
}

/**
 * A shared file diagnosed as what it is: a heap dump by its name, or found to be one by the log
 * route (then downloaded again for the heap thread); anything else as a log.
 */
export async function diagnoseSlackFileOrDump(
  deps: DiagnoseDeps,
  file: SlackFileRef,
  workspace = 'slack',
): Promise<DiagnosisResult> {
  const asDump = () => {
    admitHeapDump(deps, file);
    return diagnoseSlackHeapDump(deps, file, workspace);
  };
  if (namedLikeHeapDump(file.name ?? '')) return asDump();
  try {
    return await diagnoseSlackFile(deps, file, undefined, workspace);
  } catch (error) {
    if (!isHeapDumpRefusal(error)) throw error;
    return asDump();
  }
}

/**
 * Most bytes of a first file kept for its case (counted against the in-flight cap meanwhile); a
 * larger file, or one read while the cap is over half full, is downloaded again for its case instead.
 */
export const KEEP_MAX_BYTES = 16 * 1024 * 1024;

/**
 * A copy of a download's chunks as the diagnosis reads them, so the case reads them again without a
 * second download. A chunk is kept only when the cap has room for its copy now: the kept chunk stays
 * counted until the case's reader is done with it, the copy the diagnosis reads until it is read.
 * Once the copy is dropped (too large, no room), each chunk goes to the diagnosis as it is.
 */
class KeptCopy {
  private chunks: Uint8Array[] = [];
  private bytes = 0;
  private dropped = false;

  constructor(
    private readonly room: () => boolean,
    private readonly counted: Counted,
  ) {}

  async *pass(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    for await (const chunk of chunks) {
      if (!this.dropped && this.keeps(chunk.length)) {
        this.chunks.push(chunk);
        this.bytes += chunk.length;
        // The diagnosis gets its own copy: a thread takes the memory of what it is given (the
        // chunk's buffer moves, and is empty here afterwards), and the kept chunk is read again.
        yield chunk.slice();
        continue;
      }
      this.drop();
      yield chunk;
    }
  }

  /** Whether one more chunk is kept: within KEEP_MAX_BYTES, and its copy counted if it fits now. */
  private keeps(bytes: number): boolean {
    if (this.bytes + bytes > KEEP_MAX_BYTES || !this.room()) return false;
    return this.counted.tryTake ? this.counted.tryTake(bytes) : true;
  }

  private drop(): void {
    if (this.dropped) return;
    this.dropped = true;
    this.counted.onRead?.(this.bytes);
    this.chunks = [];
  }

  /** The kept bytes as an input again, or undefined when the copy was dropped. */
  again(source: string): DiagnosisInput | undefined {
    if (this.dropped) return undefined;
    const chunks = this.chunks;
    // Each kept chunk is let go as the case reads it, so what the cap no longer counts is not held.
    async function* replay() {
      for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) yield chunk;
    }
    const onRead = this.counted.onRead;
    return { source, chunks: replay(), ...(onRead ? { onRead } : {}) };
  }
}

/**
 * Downloads a shared file once and diagnoses it as diagnoseSlackFile does (the same answer), keeping
 * a copy of its bytes for `then`, which gets them again as an input (the case reads its keys and
 * facts from them); `again` is undefined when the file was too large to keep (KEEP_MAX_BYTES).
 */
export function diagnoseSlackFileKept<T>(
  deps: DiagnoseDeps,
  file: SlackFileRef,
  workspace: string,
  then: (result: DiagnosisResult, again: DiagnosisInput | undefined) => Promise<T>,
): Promise<T> {
  const source = file.name ?? file.id;
  const cap = deps.inflight;
  // Copies are kept only in the lower half of the cap: a kept copy is released once its case is read
  // in the pool, so the other half stays for the inputs being read that the case read waits behind.
  // A file Slack announces as larger than KEEP_MAX_BYTES is not copied at all: it would be dropped
  // half-way, after holding 16 MiB of copies for nothing (the bench's in-flight peak was just that).
  const tooLarge = (file.size ?? 0) > KEEP_MAX_BYTES;
  const room = () => !tooLarge && (!cap || cap.bytesHeld + KEEP_MAX_BYTES <= cap.capBytes / 2);
  return withDownload(deps, file, async (counted) => {
    const copy = new KeptCopy(room, counted);
    const input = {
      source,
      chunks: copy.pass(counted.chunks),
      ...(counted.onRead ? { onRead: counted.onRead } : {}),
    };
    const result = await run(deps, input, undefined, workspace);
    return then(result, copy.again(source));
  });
}

type CaseDeps = DiagnoseDeps & { cases: NonNullable<DiagnoseDeps['cases']> };

/** The case use case's context: the thread's store and limits, the worker pool reading inputs. */
function caseContext(deps: CaseDeps): CaseContext {
  const engines = deps.engines;
  return {
    cases: deps.cases.store,
    limits: deps.cases.limits,
    playbooks: deps.playbooks,
    ...(engines?.readCase ? { readInput: engines.readCase.bind(engines) } : {}),
  };
}

/**
 * Adds an input's facts to the thread's case (addToCase: its text is read within the case's limits,
 * in the worker pool when there is one, and never kept).
 */
export function addInputToCase(deps: CaseDeps, input: DiagnosisInput, where: CaseWhere): Promise<CaseAnswer> {
  const add = () => addToCase({ where, input }, caseContext(deps));
  // A paste's text is held (and its lines read) until the case has its facts: it counts till then.
  return 'text' in input ? withinCap(deps, Buffer.byteLength(input.text), add) : add();
}

/** Reads an input for the thread's case without writing it yet (see writeReadToCase). */
export function readInputForCase(
  deps: CaseDeps,
  input: DiagnosisInput,
  where: CaseWhere,
): Promise<ReadInput> {
  return readForCase({ where, input }, caseContext(deps));
}

/** Downloads a shared file (again) and reads it for the thread's case without writing it. */
export function readSlackFileForCase(
  deps: CaseDeps,
  file: SlackFileRef,
  where: CaseWhere,
): Promise<ReadInput> {
  const source = file.name ?? file.id;
  return withDownload(deps, file, (counted) => readInputForCase(deps, { source, ...counted }, where));
}

/** Writes an input read by readInputForCase; `answerTs` names the answer message when it was just posted. */
export function writeReadToCase(
  deps: CaseDeps,
  read: { source: string; read: ReadInput },
  where: CaseWhere,
  answerTs?: string,
): Promise<CaseAnswer> {
  const request = { where, input: { source: read.source }, ...(answerTs ? { answerTs } : {}) };
  return addReadToCase(request, read.read, caseContext(deps));
}

/** Downloads a shared file and adds its facts to the thread's case (addInputToCase). */
export function addSlackFileToCase(
  deps: CaseDeps,
  file: SlackFileRef,
  where: CaseWhere,
): Promise<CaseAnswer> {
  const source = file.name ?? file.id;
  return withDownload(deps, file, (counted) => addInputToCase(deps, { source, ...counted }, where));
}

/** The diagnosis message for a result, with the buttons this deployment offers. */
export function diagnosisMessage(deps: DiagnoseDeps, result: DiagnosisResult, user: string): MessageView {
  const known = result.report.diagnoses.length > 0 ? walkthroughStart(result) : undefined;
  return diagnosisView(result.report, deps.playbooks, user, known, {
    ...(result.suggestion ? { suggestion: result.suggestion } : {}),
    explain: deps.assist !== undefined,
  });
}

/** Largest file accepted as the answer to a paste step: parsers read text that fits in memory. */
export const PASTE_FILE_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Downloads a shared file (gunzipping it) as text, to answer a walkthrough's paste step. Its bytes
 * count against the in-flight cap until the text is read (a .gz counts its compressed bytes).
 */
export function readSlackFileText(deps: DiagnoseDeps, file: SlackFileRef): Promise<string> {
  const maxBytes = Math.min(deps.settings.maxExpandedBytes, PASTE_FILE_MAX_BYTES);
  return withDownload(deps, file, ({ chunks }) => readPasteText(file.name ?? file.id, chunks, maxBytes));
}
