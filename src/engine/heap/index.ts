/** The heap dump analysis: one entry point, its report, and the report as evidence. */
export { analyzeHeapDump, analyzeHeapDumpInDepth, type HeapAnalysis, type ReadOptions } from './analyze.ts';
export { type HeapFact, heapEvidence } from './evidence.ts';
export { HprofFormatError } from './format.ts';
export { DumpChangedError } from './graph.ts';
export { type DumpSource, dumpBytes, PASSES, type PassRead, type Progress } from './read.ts';
export type { HeapReport, HeapSuspect, RootDescription } from './report.ts';
export { frameText } from './report.ts';
export type { StackFrame } from './threads.ts';

/** The first bytes of an HPROF file (the header's "JAVA PROF"). */
export function isHprof(head: Uint8Array): boolean {
  const magic = 'JAVA PROFILE ';
  for (let i = 0; i < magic.length; i++) if (head[i] !== magic.charCodeAt(i)) return false;
  return true;
}
