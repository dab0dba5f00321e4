import type { CaseRecord, CaseStore, CaseWhere } from '../cases/index.ts';
import type { CaseInputOffload } from '../diagnosis/engine-job.ts';
import { HeapDumpOverBudgetError } from '../diagnosis/heap-budget.ts';
import { type DiagnosisInput, knownFacts, routeCaseInput } from '../diagnosis/index.ts';
import { reportingReads } from '../diagnosis/reads.ts';
import {
  type CaseGroupReport,
  type CaseLimits,
  type CaseReport,
  caseFindings,
  type LeftOut,
  readStoredInput,
  renamed,
  reportStoredCase,
  type StoredInput,
} from '../engine/case/index.ts';
import { CaseConflictError, ErrorCode, MemdoctorError } from '../errors.ts';
import { type DiagnosisFacts, fromKey } from '../walkthrough/index.ts';
import { type CaseChange, caseChange, leadGroup, uniqueName } from './case-change.ts';
import type { EngineHint, Playbook } from './types.ts';

export type { CaseRecord, CaseStore, CaseWhere } from '../cases/index.ts';
export type { CaseGroupReport, CaseLimits, CaseReport } from '../engine/case/index.ts';
export { type CaseChange, leadGroup } from './case-change.ts';

/** A new input for the case of a Slack thread or a console session. */
export interface CaseInputRequest {
  where: CaseWhere;
  input: DiagnosisInput;
  /** The system the user named, kept with the case's first input and applied to the whole case. */
  engine?: EngineHint;
  /** The ts of the answer message, when the caller has just posted it for this input. */
  answerTs?: string;
}

/** What the case use case works with. */
export interface CaseContext {
  cases: CaseStore;
  playbooks: readonly Playbook[];
  limits: CaseLimits;
  /**
   * Where an input is read into its keys and facts (the Slack app's worker pool); here when unset,
   * and only then is a heap dump read (by the heap analysis, which does not run in the pool yet).
   */
  readInput?: CaseInputOffload;
  /** MEMDOCTOR_HEAP_DUMP_BUDGET for a heap dump read here; unset: none. */
  heapDumpBudget?: number;
  now?: () => Date;
}

/** The case's answer after a change: the report, what changed, and what a walkthrough starts from. */
export interface CaseAnswer {
  record: CaseRecord;
  report: CaseReport;
  change: CaseChange;
  /** The group the answer leads with (its top diagnosis is the case's). */
  lead?: CaseGroupReport;
  /** The facts of the lead group's inputs together, with its top diagnosis' values. */
  known: DiagnosisFacts;
}

/** How often a change is tried again when another one in the same thread wrote first. */
const CONFLICT_TRIES = 3;

/**
 * The input's bytes and who hears of each chunk once the case's reader is done with it. The reader
 * keeps none of an input's lines once their keys, facts and times are read (readStoredInput), so a
 * chunk is released as the next one is asked for, as a diagnosis releases it: a large upload holds
 * the cap a few chunks at a time, and waits for room like any other input.
 */
function caseBytes(input: DiagnosisInput): CaseBytes {
  if ('text' in input) return { chunks: textChunks(input.text), pasted: true };
  return { chunks: input.chunks, ...(input.onRead ? { onRead: input.onRead } : {}) };
}

/** A case input's bytes: `pasted` text is never a heap dump, so it goes straight to the text reader. */
interface CaseBytes {
  chunks: AsyncIterable<Uint8Array>;
  onRead?: (bytes: number) => void;
  pasted?: boolean;
}

async function* textChunks(text: string): AsyncGenerator<Uint8Array> {
  yield Buffer.from(text, 'utf8');
}

/**
 * Reads a case's input here, on this thread (the console, tests): its keys, facts and times, batch
 * by batch, telling `onRead` of each chunk once it is read.
 */
export const readHere: CaseInputOffload = (job) =>
  readStoredInput({ source: job.source, chunks: reportingReads(job.chunks, job.onRead) }, job.maxBytes);

/**
 * Reads the input here (a heap dump by the heap analysis, text into its keys and facts) or where
 * `readInput` reads it; either way each chunk is released once read (its bytes, as they came).
 */
async function readStored(
  input: CaseBytes & { source: string },
  maxBytes: number,
  context: CaseContext,
): Promise<ReadInput> {
  const { source, chunks: raw, onRead } = input;
  if (context.readInput)
    return {
      stored: await context.readInput({ source, chunks: raw, maxBytes, ...(onRead ? { onRead } : {}) }),
    };
  const chunks = reportingReads(raw, onRead);
  if (input.pasted) return { stored: await readHere({ source, chunks, maxBytes }) };
  const routed = await routeCaseInput(
    { source: input.source, chunks },
    context.playbooks,
    context.heapDumpBudget,
  );
  if ('stored' in routed) return routed;
  return { stored: await readHere({ source: input.source, chunks: routed.chunks, maxBytes }) };
}

/** An input read for a case: what the case keeps of it, or why it is left out (unread). */
export type ReadInput = { stored: StoredInput } | { leftOut: LeftOut };

/** Reads the input within what the case has left; past a limit, why it is left out (unread). */
async function readWithin(
  record: CaseRecord | undefined,
  request: CaseInputRequest,
  context: CaseContext,
): Promise<ReadInput> {
  const { limits } = context;
  const source = request.input.source;
  const held = record?.bytes ?? 0;
  if ((record?.inputs.length ?? 0) >= limits.maxInputs)
    return { leftOut: { source, reason: `a case holds at most ${limits.maxInputs} inputs` } };
  try {
    return await readStored({ source, ...caseBytes(request.input) }, limits.maxBytes - held, context);
  } catch (error) {
    // From a worker thread the error comes back as a MemdoctorError with its code. A dump over the
    // heap budget is too large for this machine, not for the case: its own message says what to do.
    if (!(error instanceof MemdoctorError && error.code === ErrorCode.InputTooLarge)) throw error;
    if (error instanceof HeapDumpOverBudgetError) throw error;
    return {
      leftOut: {
        source,
        reason: `the case would pass its limit of ${limits.maxBytes} bytes (${held} held before it)`,
      },
    };
  }
}

/** The report of a stored case (undefined: no case yet). */
function reportOf(record: CaseRecord | undefined, playbooks: readonly Playbook[]): CaseReport | undefined {
  return record ? reportStoredCase(record, playbooks, record.engine) : undefined;
}

/**
 * Which input gave each kind of fact (the first that did, in the case's order), as values a
 * walkthrough's prefilled answers name: `from.parsed.pmap` = `pmap.txt`.
 */
function inputOfEachFact(inputs: readonly StoredInput[], names: readonly string[]): Record<string, string> {
  const from: Record<string, string> = {};
  for (const input of inputs)
    if (names.includes(input.name))
      for (const group of input.book.groups) from[fromKey(group.kind)] ??= input.name;
  return from;
}

/**
 * The case's answer as it stands: what a walkthrough started in the thread knows, with the input
 * each fact came from, so every step an input already answers is answered from it and says so.
 */
export function caseKnown(record: CaseRecord, report: CaseReport): DiagnosisFacts {
  const lead = leadGroup(report);
  const findings = caseFindings(record.inputs, lead?.inputs ?? [], record.engine);
  const known = knownFacts(findings, lead?.diagnoses[0]?.facts);
  // Last, so a start button too small for everything drops these first (the store keeps them all).
  return { ...known, values: { ...known.values, ...inputOfEachFact(record.inputs, lead?.inputs ?? []) } };
}

/** One try: the input's facts (or why it is left out) written over the version just read. */
async function write(
  request: Omit<CaseInputRequest, 'input'> & { input: Pick<DiagnosisInput, 'source'> },
  context: CaseContext,
  read: ReadInput,
  at: string,
) {
  const before = await context.cases.get(request.where);
  const leftOut =
    'leftOut' in read ? { ...read.leftOut, source: uniqueName(before, read.leftOut.source) } : undefined;
  const input = 'stored' in read ? renamed(read.stored, uniqueName(before, read.stored.name)) : undefined;
  const result = await context.cases.add(
    request.where,
    {
      ...(input ? { input } : { leftOut }),
      limits: context.limits,
      ...(request.answerTs ? { answerTs: request.answerTs } : {}),
      ...(request.engine ? { engine: request.engine } : {}),
      at,
    },
    before?.version ?? 0,
  );
  return { before, result, name: input?.name ?? leftOut?.source ?? request.input.source };
}

/**
 * The one door for a new input in a thread or a console session: reads it (within the case's
 * limits), stores its facts (never its text) in the case, and diagnoses the whole case again from
 * the stored facts. Returns the new answer and what changed; an input past a limit is recorded as
 * left out, and the answer says so. Tries again when another input of the same case wrote first.
 */
export async function addToCase(request: CaseInputRequest, context: CaseContext): Promise<CaseAnswer> {
  return addReadToCase(request, await readForCase(request, context), context);
}

/** Reads the input as addToCase does, within what the case held when read, without writing it. */
export async function readForCase(request: CaseInputRequest, context: CaseContext): Promise<ReadInput> {
  return readWithin(await context.cases.get(request.where), request, context);
}

/**
 * Writes an input read by readForCase into the case, as addToCase does: a caller that reads first
 * can check the thread between reading and writing (the Slack app, whether another replica answered).
 */
export async function addReadToCase(
  request: Omit<CaseInputRequest, 'input'> & { input: Pick<DiagnosisInput, 'source'> },
  read: ReadInput,
  context: CaseContext,
): Promise<CaseAnswer> {
  const at = (context.now?.() ?? new Date()).toISOString();
  for (let attempt = 1; ; attempt++) {
    try {
      const { before, result, name } = await write(request, context, read, at);
      const report = reportStoredCase(result.record, context.playbooks, result.record.engine);
      const change = caseChange(name, result, reportOf(before, context.playbooks), report);
      const lead = leadGroup(report);
      return {
        record: result.record,
        report,
        change,
        ...(lead ? { lead } : {}),
        known: caseKnown(result.record, report),
      };
    } catch (error) {
      if (!(error instanceof CaseConflictError) || attempt >= CONFLICT_TRIES) throw error;
    }
  }
}

/** The case of a thread or session as it stands, or undefined when there is none. */
export async function readCaseAnswer(where: CaseWhere, context: CaseContext) {
  const record = await context.cases.get(where);
  if (!record) return undefined;
  const report = reportStoredCase(record, context.playbooks, record.engine);
  return { record, report, known: caseKnown(record, report) };
}
