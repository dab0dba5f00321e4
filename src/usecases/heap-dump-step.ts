import {
  diagnoseHeapDump,
  type HeapDumpRead,
  peekInput,
  refuseUnlessHeapDump,
} from '../diagnosis/heap-dump.ts';
import type { Finding } from '../engine/facts.ts';
import type { HeapReport } from '../engine/heap/index.ts';
import type { SeekableInput } from '../engine/ranges.ts';
import { formatSize } from '../engine/units.ts';
import { MemdoctorError } from '../errors.ts';
import type { WalkthroughEvent } from '../walkthrough/index.ts';
import { type AnswerContext, type AnswerRequest, type AnswerResult, answerStep } from './answer-step.ts';

/**
 * A heap dump handed to a walkthrough step, as any surface has it: a file at the terminal, a Slack
 * upload streamed to a temporary file. The chunks are read once; `seekable` (the same file) lets
 * the analysis read it a second time for thread names.
 */
export interface StepDump {
  /** The dump's name as the person gave it: a path, an uploaded file's name. */
  source: string;
  chunks: AsyncIterable<Uint8Array>;
  seekable?: SeekableInput;
}

/** How the dump's analysis runs: the budget (MEMDOCTOR_HEAP_DUMP_BUDGET) and who hears its progress. */
export interface StepDumpOptions {
  budgetBytes?: number;
  onProgress?: (read: HeapDumpRead) => void;
}

/**
 * A heap dump analysed into the event that answers a heap-dump step: the analysis' `heap-dump.*`
 * facts and one summary line. Only names, counts and sizes leave the analysis (src/engine/heap), and
 * nothing of the dump is kept beyond them. Throws InputUnreadableError for a file that is not a heap
 * dump or is corrupt, HeapDumpOverBudgetError for one beyond the budget.
 */
export async function heapDumpStepEvent(
  dump: StepDump,
  options: StepDumpOptions = {},
  step?: string,
): Promise<WalkthroughEvent> {
  const { head, all } = await peekInput(dump.chunks);
  refuseUnlessHeapDump(dump.source, head);
  const input = { source: dump.source, head, all, ...(dump.seekable ? { seekable: dump.seekable } : {}) };
  return heapDumpEventFrom(dump.source, await diagnoseHeapDump(input, [], options), step);
}

/** The event that answers a heap-dump step. */
export type HeapDumpEvent = Extract<WalkthroughEvent, { type: 'heap-dump' }>;

/** What an analysis of a dump gives the step: the report of what holds the heap, and its facts. */
export interface DumpAnalysis {
  heap: HeapReport;
  findings: readonly Finding[];
}

/**
 * The event that answers a heap-dump step, from a dump already analysed (a Slack upload read in the
 * heap thread): the analysis' `heap-dump.*` facts and one summary line.
 */
export function heapDumpEventFrom(source: string, analysis: DumpAnalysis, step?: string): HeapDumpEvent {
  const summary = summaryOf(analysis.heap);
  const facts = analysis.findings
    .filter((f) => f.kind.startsWith('heap-dump.'))
    .map((f) => (f.values ? { kind: f.kind, values: { ...f.values } } : { kind: f.kind }));
  return {
    type: 'heap-dump',
    source,
    summary: summary.slice(0, 2000),
    facts,
    ...(step ? { step } : {}),
  };
}

/**
 * The dump in one line: its biggest suspect, the GC root that keeps it and where it accumulates;
 * for a dump cut short, where it ends (what lies past it was not counted).
 */
function summaryOf(report: HeapReport): string {
  const { dump } = report;
  const cut = dump.complete
    ? ''
    : `; the dump is cut short at byte ${dump.bytesRead}, so what it held past there is not counted`;
  return `${suspectsOf(report)}${cut}`;
}

/** The biggest suspect, the GC root that keeps it and where it accumulates; or that there is none. */
function suspectsOf(heap: HeapReport): string {
  const [top, ...more] = heap.suspects;
  if (!top) return `no leak suspect in ${formatSize(heap.heap.bytes)} of reachable heap`;
  const acc = top.accumulation;
  const via = acc?.via ? ` (${acc.via.replace(/^\./, '')})` : '';
  const inside = acc && acc.className !== top.className ? `, accumulated in ${acc.className}${via}` : '';
  const others = more.length > 0 ? ` (and ${more.length} more suspects)` : '';
  return `${top.summary}${inside}${others}`;
}

/**
 * Answers a heap-dump step with a dump: analysed first (apart from the store, so a slow read holds no
 * walkthrough), then applied as any answer is. A file that is not a dump, a corrupt or over-budget
 * one comes back as a refusal whose message says what to do; the walkthrough is left as it was.
 */
export async function answerStepWithHeapDump(
  context: AnswerContext,
  request: Omit<AnswerRequest, 'event'> & { dump: StepDump; options?: StepDumpOptions },
): Promise<AnswerResult> {
  let event: WalkthroughEvent;
  try {
    event = await heapDumpStepEvent(request.dump, request.options, request.step);
  } catch (error) {
    if (error instanceof MemdoctorError) return { kind: 'refused', error };
    throw error;
  }
  const { dump: _dump, options: _options, ...rest } = request;
  return answerStep(context, { ...rest, event });
}
