import { type Dominators, dominators } from './dominators.ts';
import { classEdge, type HeapGraph, predecessors } from './graph.ts';
import type { HeapBuilder } from './heap-builder.ts';
import { duplicateClassesOf, systemsOf } from './holders.ts';
import { type DumpSource, type Progress, passCounter, readHeap } from './read.ts';
import type { HeapReport } from './report.ts';
import { dominatorChildren, retainedSizes } from './retained.ts';
import { describeSuspects } from './suspect-report.ts';
import { type DominatorView, findSuspects } from './suspects.ts';
import { oomThread, threadNames, threadsOf } from './threads.ts';

const HISTOGRAM_ROWS = 30;

/** How the dump can be read. */
export interface ReadOptions {
  /**
   * The source gives the dump only once (a pipe): the first pass keeps every reference, and threads
   * keep their serial numbers for names. Otherwise the source is read three times (PASSES): the
   * objects, their references, the few thread names.
   */
  readOnce?: boolean;
}

/**
 * Reads a heap dump (.hprof or gzip) and finds what holds its memory: the one entry point of the heap
 * analysis.
 */
export async function analyzeHeapDump(
  source: DumpSource,
  progress?: Progress,
  options: ReadOptions = {},
): Promise<HeapReport> {
  return (await analyzeHeapDumpInDepth(source, progress, options)).report;
}

/** The report with the graph and retained sizes it came from, for checks against another tool. */
export interface HeapAnalysis {
  report: HeapReport;
  heap: HeapBuilder;
  graph: HeapGraph;
  /** Retained bytes by object index (the virtual root last). */
  retained: Float64Array;
}

export async function analyzeHeapDumpInDepth(
  source: DumpSource,
  progress?: Progress,
  options: ReadOptions = {},
): Promise<HeapAnalysis> {
  const { heap, graph: g, end, version } = await readHeap(source, progress, options.readOnce === true);
  const dom = dominatorTree(g);
  const retained = retainedSizes(dom, g.shallow, g.n + 1);
  const view: DominatorView = { dom, retained, ...dominatorChildren(dom, g.n + 1) };
  const total = retained[g.n] as number;
  const threads = threadsOf(heap, g);
  if (!options.readOnce) await threadNames(source, heap, g, threads, passCounter(progress, 3, false));
  const suspects = describeSuspects({ heap, g, threads, total }, findSuspects(g, view, total));
  const oom = oomThread(threads);
  const report: HeapReport = {
    dump: {
      version,
      idSize: heap.idSize,
      sizes: heap.sizes.layout,
      complete: end.complete,
      bytesRead: end.offset,
      ...(end.reason && { endReason: end.reason }),
    },
    heap: heapFigures(heap, g, dom, total),
    histogram: histogram(heap, g, dom.idom),
    suspects,
    ...(oom && { oomThread: { name: oom.name, frames: oom.frames } }),
    threads: threads.map((t) => ({ name: t.name, frames: t.frames.length })),
    systems: systemsOf(heap.classes.map((c) => c.name)),
    duplicateClasses: duplicateClassesOf(heap.classes.map((c) => c.name)),
  };
  return { report, heap, graph: g, retained };
}

/** The dominator tree from the virtual root; the reverse edges it needs are let go when it returns. */
function dominatorTree(g: HeapGraph): Dominators {
  const { predStart, preds } = predecessors(g);
  const implied = (v: number) => (v < g.n ? classEdge(g, v) : -1);
  const succ = { count: g.n + 1, start: g.start, targets: g.targets, implied };
  return dominators(succ, { count: g.n + 1, start: predStart, targets: preds }, g.n);
}

function heapFigures(heap: HeapBuilder, g: HeapGraph, dom: Dominators, total: number): HeapReport['heap'] {
  return {
    objects: dom.order.length - 1,
    bytes: total,
    classes: heap.classes.length,
    gcRoots: heap.rootIds.length,
    unreachable: unreachable(g, dom.idom),
    danglingReferences: g.dangling,
    rootsMissing: g.rootsMissing,
  };
}

function unreachable(g: HeapGraph, idom: Int32Array): { objects: number; bytes: number } {
  let objects = 0;
  let bytes = 0;
  for (let i = 0; i < g.n; i++) {
    if (idom[i] !== -1) continue;
    objects++;
    bytes += g.shallow[i] as number;
  }
  return { objects, bytes };
}

function histogram(heap: HeapBuilder, g: HeapGraph, idom: Int32Array): HeapReport['histogram'] {
  const count = new Float64Array(heap.classes.length + 1);
  const bytes = new Float64Array(heap.classes.length + 1);
  for (let i = 0; i < g.n; i++) {
    if (idom[i] === -1) continue;
    const c = (g.classOf[i] as number) < 0 ? heap.classes.length : (g.classOf[i] as number);
    count[c] = (count[c] as number) + 1;
    bytes[c] = (bytes[c] as number) + (g.shallow[i] as number);
  }
  const rows: HeapReport['histogram'] = [];
  for (let c = 0; c <= heap.classes.length; c++) {
    if (count[c] === 0) continue;
    rows.push({
      className: heap.classes[c]?.name ?? '<unknown class>',
      instances: count[c] as number,
      shallowBytes: bytes[c] as number,
    });
  }
  rows.sort((a, b) => b.shallowBytes - a.shallowBytes || a.className.localeCompare(b.className));
  return rows.slice(0, HISTOGRAM_ROWS);
}
