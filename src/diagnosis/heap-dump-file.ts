import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Playbook } from '../engine/playbook/schema.ts';
import { ErrorCode, InputUnreadableError, MemdoctorError } from '../errors.ts';
import { seekableFile } from '../file-input.ts';
import { checkDumpSize, largestDumpWithin } from './heap-budget.ts';
import {
  diagnoseHeapDump,
  type HeapDiagnosis,
  type HeapDumpOptions,
  knownSize,
  looksLikeHeapDump,
  refuseUnlessHeapDump,
} from './heap-dump.ts';
import { reportingReads } from './reads.ts';

const HEAD_BYTES = 64 * 1024;

/** A heap dump on this machine's disk, to be diagnosed where the analysis may take its memory. */
export interface HeapDumpJob {
  /** The name the person knows the dump by (the uploaded file's name). */
  source: string;
  path: string;
  /** MEMDOCTOR_HEAP_DUMP_BUDGET; unset: no budget. */
  budgetBytes?: number;
}

/** Runs a heap dump's analysis apart from the caller's thread (setup/heap-pool.ts). */
export type HeapDumpOffload = (job: HeapDumpJob) => Promise<HeapDiagnosis>;

/** The first chunk of a file (enough for HPROF's header, plain or gzip), the read then let go. */
async function headOf(seekable: NonNullable<CaseInputFile['seekable']>): Promise<Uint8Array> {
  for await (const chunk of seekable.read(0)) return chunk.slice(0, HEAD_BYTES);
  return new Uint8Array(0);
}

/**
 * A dump file diagnosed: its first bytes checked for HPROF's header, then the analysis with the file
 * as the second read (the thread names), within the budget. Runs in the heap thread, or in-line.
 */
export async function diagnoseHeapDumpFile(
  job: HeapDumpJob,
  playbooks: readonly Playbook[],
  options: Omit<HeapDumpOptions, 'budgetBytes'> = {},
): Promise<HeapDiagnosis> {
  const seekable = seekableFile(job.path);
  if (!seekable) throw new InputUnreadableError(job.source, 'the dump could not be opened for reading');
  const head = await headOf(seekable);
  refuseUnlessHeapDump(job.source, head);
  // Opened only when the analysis starts reading: a dump refused for its size leaves nothing open.
  const all = (async function* () {
    yield* seekable.read(0);
  })();
  return diagnoseHeapDump({ source: job.source, head, all, seekable }, playbooks, {
    ...options,
    ...(job.budgetBytes !== undefined ? { budgetBytes: job.budgetBytes } : {}),
  });
}

/** An uploaded heap dump: its bytes as they arrive, and what is known of its size beforehand. */
export interface HeapDumpUpload {
  source: string;
  chunks: AsyncIterable<Uint8Array>;
  /** Told the bytes of each chunk once it is on disk (the Slack app's in-flight cap releases them). */
  onRead?: (bytes: number) => void;
  /** The size the upload announced (Slack's `size`): compressed or not, a floor of the dump's size. */
  announcedBytes?: number;
}

export interface HeapDumpUploadContext {
  playbooks: readonly Playbook[];
  /** MEMDOCTOR_HEAP_DUMP_BUDGET. */
  heapDumpBudget?: number;
  /** Where the analysis runs; in-line on this thread when unset (tests, a terminal). */
  heapOffload?: HeapDumpOffload;
  /** Where the temporary file goes; the system's temporary directory when unset. */
  tempDir?: string;
}

/**
 * Refuses an upload whose announced size is over the budget, before its download starts: the
 * announced size is a floor (a gzip dump is larger once decompressed).
 */
export function checkHeapDumpUpload(
  upload: Pick<HeapDumpUpload, 'source' | 'announcedBytes'>,
  context: Pick<HeapDumpUploadContext, 'heapDumpBudget'>,
): void {
  const budget = context.heapDumpBudget;
  if (budget === undefined || upload.announcedBytes === undefined) return;
  checkDumpSize(upload.source, { bytes: upload.announcedBytes, exact: false }, budget);
}

/** The largest download of a dump worth starting: past it, even a plain dump is over the budget. */
export function heapDumpDownloadLimit(budgetBytes: number): number {
  return largestDumpWithin(budgetBytes);
}

/**
 * An uploaded heap dump diagnosed: refused before the download when its announced size is already
 * over the budget; else streamed to a file only this user can read (never gathered in memory),
 * analysed apart from this thread, and the file removed afterwards, whatever happened.
 */
export async function diagnoseHeapDumpUpload(
  upload: HeapDumpUpload,
  context: HeapDumpUploadContext,
): Promise<HeapDiagnosis> {
  const budget = context.heapDumpBudget;
  checkHeapDumpUpload(upload, context);
  const dir = await mkdtemp(join(context.tempDir ?? tmpdir(), 'memdoctor-heap-'));
  try {
    const path = join(dir, 'dump.hprof');
    await pipeline(
      Readable.from(reportingReads(upload.chunks, upload.onRead), { objectMode: false }),
      createWriteStream(path, { mode: 0o600, flags: 'wx' }),
    );
    const job = { source: upload.source, path, ...(budget !== undefined ? { budgetBytes: budget } : {}) };
    const run = context.heapOffload ?? ((j: HeapDumpJob) => diagnoseHeapDumpFile(j, context.playbooks));
    return await run(job);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A case's input as the check below sees it: its name, and the file when it is one. */
export interface CaseInputFile {
  source: string;
  seekable?: { size: number; read(from: number): AsyncIterable<Uint8Array> };
}

/**
 * The heap dumps among a case's files, each checked against the budget before any input of the
 * case is read: a case of a log, a GC log and a dump too large is refused at once, not after the
 * logs. A case's dumps are read one after another and each one's graph is let go before the next,
 * so the budget bounds the largest of them. Inputs that are not files (stdin) are checked as they
 * are read.
 */
export async function checkCaseHeapDumps(
  inputs: readonly CaseInputFile[],
  budgetBytes: number,
): Promise<void> {
  for (const input of inputs) {
    if (!input.seekable) continue;
    const head = await headOf(input.seekable);
    if (!looksLikeHeapDump(head)) continue;
    const size = knownSize(head, input.seekable);
    if (size) checkDumpSize(input.source, size, budgetBytes);
  }
}

/** Whether a file's name says it is a heap dump: HotSpot's .hprof, compressed or not. */
export function namedLikeHeapDump(name: string): boolean {
  return /\.hprof(\.gz|\.gzip)?$/i.test(name);
}

/**
 * Whether an error is the engine's refusal of a heap dump as "not a text log": the dump came
 * under another name, and goes to the heap analysis instead (sniff.ts names it so).
 */
export function isHeapDumpRefusal(error: unknown): boolean {
  return (
    error instanceof MemdoctorError &&
    error.code === ErrorCode.InputBinary &&
    error.message.includes('a Java heap dump (.hprof)')
  );
}
