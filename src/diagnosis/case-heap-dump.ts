import { type StoredInput, storedEvidence } from '../engine/case/index.ts';
import { heapEvidence } from '../engine/heap/index.ts';
import type { Playbook } from '../engine/playbook/schema.ts';
import type { SeekableInput } from '../engine/ranges.ts';
import { diagnoseHeapDump, looksLikeHeapDump, peekInput } from './heap-dump.ts';

/**
 * A heap dump as one input of a case: analysed as `diagnose` analyses it (within the heap-dump
 * budget), then kept as its evidence lines' facts (`heap-dump.leak`, the suspects, the OOM thread)
 * and the pid its HotSpot name carries (`java_pid<pid>.hprof`), so it joins the logs of that JVM.
 */
export async function heapDumpCaseInput(
  input: { source: string; head: Uint8Array; all: AsyncIterable<Uint8Array>; seekable?: SeekableInput },
  playbooks: readonly Playbook[],
  budgetBytes: number | undefined,
): Promise<StoredInput> {
  const result = await diagnoseHeapDump(input, playbooks, budgetBytes === undefined ? {} : { budgetBytes });
  const { lines, facts } = heapEvidence(result.heap);
  return storedEvidence({ name: input.source, bytes: result.heap.dump.bytesRead, lines }, facts);
}

/**
 * A case's input as its first bytes say: a heap dump read into what the case keeps of it, or the
 * text's chunks (the first put back) for the text reader.
 */
export async function routeCaseInput(
  input: { source: string; chunks: AsyncIterable<Uint8Array> },
  playbooks: readonly Playbook[],
  budgetBytes: number | undefined,
): Promise<{ stored: StoredInput } | { chunks: AsyncIterable<Uint8Array> }> {
  const { head, all } = await peekInput(input.chunks);
  if (!looksLikeHeapDump(head)) return { chunks: all };
  return { stored: await heapDumpCaseInput({ source: input.source, head, all }, playbooks, budgetBytes) };
}
