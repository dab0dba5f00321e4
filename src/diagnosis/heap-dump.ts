import { gunzipSync, constants as zlib } from 'node:zlib';
import { heapHoldersChart } from '../engine/charts/heap-holders.ts';
import type { ChartData } from '../engine/charts/types.ts';
import { diagnoseFacts } from '../engine/diagnose.ts';
import { FactBook } from '../engine/facts.ts';
import {
  analyzeHeapDump,
  DumpChangedError,
  type HeapReport,
  HprofFormatError,
  heapEvidence,
  isHprof,
  type PassRead,
  type Progress,
} from '../engine/heap/index.ts';
import type { Finding, InputReport } from '../engine/index.ts';
import type { Playbook } from '../engine/playbook/schema.ts';
import type { SeekableInput } from '../engine/ranges.ts';
import { InputUnreadableError } from '../errors.ts';
import { budgetGuard, checkDumpSize, type DumpSize } from './heap-budget.ts';

/** A heap dump's diagnosis, in the shape of DiagnosisResult (which it is returned as). */
export interface HeapDiagnosis {
  report: InputReport;
  findings: Finding[];
  notes: string[];
  heap: HeapReport;
  chart?: ChartData;
}

/**
 * How far the read of a dump has gone: pass `pass` of `passes` (what it reads), its decompressed bytes
 * so far, of `totalBytes` when known (a plain file; a .gz once its first pass has counted them).
 */
export interface HeapDumpRead extends PassRead {
  totalBytes?: number;
}

/** The budget a dump's analysis runs under, and who is told of the read's progress. */
export interface HeapDumpOptions {
  /** MEMDOCTOR_HEAP_DUMP_BUDGET; unset: no budget (a caller that bounds the memory itself). */
  budgetBytes?: number;
  onProgress?: (read: HeapDumpRead) => void;
}

/** A file's size as known before reading: exact when plain, a floor when gzip; nothing for a stream. */
export function knownSize(
  head: Uint8Array,
  seekable: Pick<SeekableInput, 'size'> | undefined,
): DumpSize | undefined {
  if (!seekable) return undefined;
  return { bytes: seekable.size, exact: !(head[0] === 0x1f && head[1] === 0x8b) };
}

/**
 * The analysis's progress callback: the budget's guard on the first pass (which throws to stop the
 * read; the later passes read no more than it did) and the caller's progress, with the total when
 * the file is plain, or once the first pass has counted a .gz's decompressed bytes.
 */
function progressOf(
  source: string,
  size: DumpSize | undefined,
  options: HeapDumpOptions,
): Progress | undefined {
  const guard = options.budgetBytes === undefined ? undefined : budgetGuard(source, options.budgetBytes);
  const report = options.onProgress;
  if (!guard && !report) return undefined;
  let total = size?.exact ? size.bytes : undefined;
  let counted = 0;
  return (read) => {
    if (read.pass === 1) {
      guard?.(read.bytesRead);
      counted = read.bytesRead;
    } else total ??= counted;
    report?.({ ...read, ...(total !== undefined ? { totalBytes: total } : {}) });
  };
}

/** An input's first chunk and the whole input again, that chunk first. */
export async function peekInput(
  chunks: AsyncIterable<Uint8Array>,
): Promise<{ head: Uint8Array; all: AsyncIterable<Uint8Array> }> {
  const iterator = chunks[Symbol.asyncIterator]();
  const first = await iterator.next();
  // Copied: the reader may reuse the chunk's memory once the next one is asked for.
  const head = first.done ? new Uint8Array(0) : first.value.slice();
  async function* all(): AsyncGenerator<Uint8Array> {
    if (first.done) return;
    yield head;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { head, all: all() };
}

/** What to draw of the dump: its biggest holders, when it has any. */
function holdersChart(heap: HeapReport): { chart?: ChartData } {
  const chart = heapHoldersChart(heap);
  return chart ? { chart } : {};
}

/**
 * Why a file given as a heap dump is refused when it is not one: the one wording for every place a
 * dump is asked for (`parse heap-dump`, a Slack upload, a walkthrough's heap-dump step).
 */
export const NOT_A_HEAP_DUMP =
  'it is not a Java heap dump: an HPROF file starts with "JAVA PROFILE 1.0", plain or inside gzip. ' +
  'Take one with `jcmd <pid> GC.heap_dump /tmp/heap.hprof` or -XX:+HeapDumpOnOutOfMemoryError, and give memdoctor that file';

/** Refuses, with NOT_A_HEAP_DUMP, an input given as a heap dump whose first bytes are not one. */
export function refuseUnlessHeapDump(source: string, head: Uint8Array): void {
  if (!looksLikeHeapDump(head)) throw new InputUnreadableError(source, NOT_A_HEAP_DUMP);
}

/** Whether the input is a heap dump: HPROF's header, plain or as the first bytes inside gzip (jcmd -gz). */
export function looksLikeHeapDump(head: Uint8Array): boolean {
  if (isHprof(head)) return true;
  if (head[0] !== 0x1f || head[1] !== 0x8b) return false;
  try {
    return isHprof(gunzipSync(head, { finishFlush: zlib.Z_SYNC_FLUSH }).subarray(0, 16));
  } catch {
    return false;
  }
}

/**
 * The analysis of the dump: the first read is the input already begun, later ones read the file again
 * from its start (none for a pipe, which is then read once). A corrupt or changing dump is unreadable.
 */
async function analyzed(
  input: { source: string; all: AsyncIterable<Uint8Array>; seekable?: SeekableInput },
  progress: Progress | undefined,
): Promise<HeapReport> {
  let reads = 0;
  const source = () => {
    reads++;
    if (reads === 1) return input.all;
    return input.seekable ? input.seekable.read(0) : (async function* () {})();
  };
  try {
    return await analyzeHeapDump(source, progress, { readOnce: !input.seekable });
  } catch (error) {
    if (error instanceof HprofFormatError || error instanceof DumpChangedError)
      throw new InputUnreadableError(input.source, error.message);
    throw error;
  }
}

/**
 * A heap dump diagnosed: the analysis (src/engine/heap), its evidence lines and facts into a fact book,
 * and the playbooks ranked on them. A file (seekable) is read again for the references and the thread
 * names; a pipe is read once (more memory), and its threads keep their serial numbers.
 */
export async function diagnoseHeapDump(
  input: { source: string; head: Uint8Array; all: AsyncIterable<Uint8Array>; seekable?: SeekableInput },
  playbooks: readonly Playbook[],
  options: HeapDumpOptions = {},
): Promise<HeapDiagnosis> {
  const size = knownSize(input.head, input.seekable);
  if (size && options.budgetBytes !== undefined) checkDumpSize(input.source, size, options.budgetBytes);
  const heap = await analyzed(input, progressOf(input.source, size, options));
  return diagnoseHeapReport(input.source, heap, playbooks);
}

/**
 * A heap report diagnosed: its evidence lines and facts into a fact book, and the playbooks ranked on
 * them. Apart from the reading so that the walkthrough's dump steps and the tests of the holder
 * mapping judge a report the same way.
 */
export function diagnoseHeapReport(
  source: string,
  heap: HeapReport,
  playbooks: readonly Playbook[],
): HeapDiagnosis {
  const { lines, facts } = heapEvidence(heap);
  const book = new FactBook();
  for (const fact of facts)
    book.add({ kind: fact.kind, values: fact.values, line: fact.line, text: lines[fact.line - 1] as string });
  const notes = [
    `${source}: a Java heap dump (HPROF ${heap.dump.version}); the evidence lines below are memdoctor's reading of it, numbered 1-${lines.length}.`,
    ...lines,
  ];
  return {
    report: {
      source,
      input: { bytes: heap.dump.bytesRead, lines: lines.length },
      diagnoses: diagnoseFacts(book, playbooks),
    },
    findings: book.findings(),
    notes,
    heap,
    ...holdersChart(heap),
  };
}
