import {
  diagnoseHeapDump,
  type HeapDumpRead,
  peekInput,
  refuseUnlessHeapDump,
} from '../diagnosis/heap-dump.ts';
import type { Finding } from '../engine/facts.ts';
import type { HeapReport } from '../engine/heap/index.ts';
import type { SeekableInput } from '../engine/ranges.ts';

/** `memdoctor parse heap-dump`: the lines and facts `diagnose` reads from a dump, and its report. */
export interface ParsedHeapDump {
  format: 'heap-dump';
  source: string;
  /** The evidence lines, as `diagnose` numbers and cites them. */
  lines: string[];
  findings: Finding[];
  /** Names, counts and sizes only: never a string's or an array's content. */
  heap: HeapReport;
}

export interface ParseHeapDumpOptions {
  /** MEMDOCTOR_HEAP_DUMP_BUDGET. */
  budgetBytes?: number;
  onProgress?: (read: HeapDumpRead) => void;
}

/**
 * Reads a heap dump as `diagnose` does (the same analysis, lines and facts, so the two always
 * agree) without ranking the playbooks; a file that is not a dump is told so.
 */
export async function parseHeapDump(
  input: { source: string; chunks: AsyncIterable<Uint8Array>; seekable?: SeekableInput },
  options: ParseHeapDumpOptions = {},
): Promise<ParsedHeapDump> {
  const { head, all } = await peekInput(input.chunks);
  refuseUnlessHeapDump(input.source, head);
  const read = await diagnoseHeapDump(
    { source: input.source, head, all, ...(input.seekable ? { seekable: input.seekable } : {}) },
    [],
    options,
  );
  return {
    format: 'heap-dump',
    source: input.source,
    lines: read.notes.slice(1),
    findings: read.findings,
    heap: read.heap,
  };
}
