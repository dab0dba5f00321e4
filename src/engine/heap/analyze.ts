import { formatSize } from '../units.ts';
import { className0, describeRoot, pathText } from './describe.ts';
import { dominators } from './dominators.ts';
import { SubTag } from './format.ts';
import { buildGraph, type HeapGraph, predecessors } from './graph.ts';
import { type HeapBuilder, ObjectKind } from './heap-builder.ts';
import { systemsOf } from './holders.ts';
import { edgeName, type PathStep, pathTo, shortestParents } from './paths.ts';
import { type DumpSource, type Progress, readHeap } from './read.ts';
import type { HeapReport, HeapSuspect, RootDescription } from './report.ts';
import { dominatorChildren, retainedSizes } from './retained.ts';
import { type DominatorView, findSuspects, type RawSuspect } from './suspects.ts';
import { oomThread, type ThreadInfo, threadNames, threadsOf } from './threads.ts';

const HISTOGRAM_ROWS = 30;
/** Roots held by a thread's stack: a path through them is reported only when no other path exists. */
const STACK_ROOTS = new Set<number>([
  SubTag.rootJavaFrame,
  SubTag.rootJniLocal,
  SubTag.rootNativeStack,
  SubTag.rootThreadBlock,
]);

/**
 * Reads a heap dump (.hprof or gzip) and finds what holds its memory: the one entry point of the heap
 * analysis. Two passes over the source: the graph, then the few thread names.
 */
export async function analyzeHeapDump(source: DumpSource, progress?: Progress): Promise<HeapReport> {
  return (await analyzeHeapDumpInDepth(source, progress)).report;
}

/** The report with the graph and retained sizes it came from, for checks against another tool. */
export interface HeapAnalysis {
  report: HeapReport;
  heap: HeapBuilder;
  graph: HeapGraph;
  /** Retained bytes by object index (the virtual root last). */
  retained: Float64Array;
}

export async function analyzeHeapDumpInDepth(source: DumpSource, progress?: Progress): Promise<HeapAnalysis> {
  const { heap, end, version } = await readHeap(source, progress);
  const g = buildGraph(heap);
  const { predStart, preds } = predecessors(g);
  const dom = dominators(
    { count: g.n + 1, start: g.start, targets: g.targets },
    { count: g.n + 1, start: predStart, targets: preds },
    g.n,
  );
  const retained = retainedSizes(dom, g.shallow, g.n + 1);
  const view: DominatorView = { dom, retained, ...dominatorChildren(dom, g.n + 1) };
  const total = retained[g.n] as number;
  const threads = threadsOf(heap, g);
  await threadNames(source, heap, g, threads);
  const suspects = describeSuspects(heap, g, threads, findSuspects(g, view, total), total);
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
    heap: {
      objects: dom.order.length - 1,
      bytes: total,
      classes: heap.classes.length,
      gcRoots: heap.rootIds.length,
      unreachable: unreachable(g, dom.idom),
      danglingReferences: g.dangling,
      rootsMissing: g.rootsMissing,
    },
    histogram: histogram(heap, g, dom.idom),
    suspects,
    ...(oom && { oomThread: { name: oom.name, frames: oom.frames } }),
    threads: threads.map((t) => ({ name: t.name, frames: t.frames.length })),
    systems: systemsOf(heap.classes.map((c) => c.name)),
  };
  return { report, heap, graph: g, retained };
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

function describeSuspects(
  heap: HeapBuilder,
  g: HeapGraph,
  threads: ThreadInfo[],
  raw: RawSuspect[],
  total: number,
): HeapSuspect[] {
  if (raw.length === 0) return [];
  // Equal holders (four threads with the same ThreadLocal) come out in the order of their text.
  const lasting = shortestParents(
    g,
    rootObjects(heap, g, (kind) => !STACK_ROOTS.has(kind)),
    heap.classes,
  );
  let anyRoot: Int32Array | undefined;
  return raw
    .map((s) => {
      let path = pathTo(g, lasting, s.node, heap.classes);
      if (!path) {
        anyRoot ??= shortestParents(
          g,
          rootObjects(heap, g, () => true),
          heap.classes,
        );
        path = pathTo(g, anyRoot, s.node, heap.classes) ?? [{ node: s.node, via: '' }];
      }
      const root = describeRoot(heap, g, threads, path);
      const className = className0(heap, g, s.node);
      const percent = pct(s.retained, total);
      const what = s.kind === 'object' ? className : `${s.instances} instances of ${className}`;
      const via = s.kind === 'object' ? ` via ${holderText(heap, g, s, root, path)}` : '';
      return {
        kind: s.kind,
        className,
        instances: s.instances,
        retainedBytes: s.retained,
        percent,
        ...(s.accumulation && {
          accumulation: {
            className: className0(heap, g, s.accumulation.node),
            retainedBytes: s.accumulation.retained,
            percent: pct(s.accumulation.retained, total),
            dominatorPath: s.accumulation.path.map((v) => className0(heap, g, v)),
            via: fieldsAlong(heap, g, s.accumulation.path),
          },
        }),
        ...(root && { root }),
        path: path.map((step) => ({ className: className0(heap, g, step.node), via: step.via })),
        summary: `${what} ${s.kind === 'object' ? 'retains' : 'retain'} ${formatSize(s.retained)} (${percent}% of the heap)${via}`,
      };
    })
    .sort(
      (a, b) =>
        b.retainedBytes - a.retainedBytes || (a.summary < b.summary ? -1 : a.summary > b.summary ? 1 : 0),
    );
}

/**
 * How the suspect is held. A class object is held by its class loader, which says little: what it
 * retains is in its static fields, so the static field its biggest share goes through is named.
 */
function holderText(
  heap: HeapBuilder,
  g: HeapGraph,
  s: RawSuspect,
  root: RootDescription | undefined,
  path: PathStep[],
): string {
  const next = s.accumulation?.path[1];
  if (g.kind[s.node] === ObjectKind.class && next !== undefined) {
    const field = edgeName(g, s.node, next, heap.classes);
    if (!field.startsWith('<') && field !== '?')
      return `static ${className0(heap, g, s.node).slice('class '.length)}.${field}`;
  }
  if (g.kind[s.node] === ObjectKind.class) return 'its static fields';
  if (g.rootsMissing) return 'no GC root (the dump was cut before its root records)';
  return pathText(root, path, g);
}

/** `.table` or `.threadLocals.table[3].value.elementData`: the fields from a suspect down its dominator path. */
function fieldsAlong(heap: HeapBuilder, g: HeapGraph, path: number[]): string {
  let out = '';
  for (let i = 1; i < path.length; i++) {
    const name = edgeName(g, path[i - 1] as number, path[i] as number, heap.classes);
    // A dominated object need not be referenced by its dominator directly: say so rather than guess a field.
    out += name === '?' ? ' … ' : name.startsWith('[') ? name : `.${name}`;
  }
  return out;
}

function pct(part: number, total: number): number {
  return total > 0 ? Math.round((part / total) * 1000) / 10 : 0;
}

/** Objects of root records of the kinds asked for; class objects too when the dump has no roots. */
function rootObjects(heap: HeapBuilder, g: HeapGraph, keep: (kind: number) => boolean): number[] {
  if (g.rootsMissing) return g.fallbackRoots;
  const out: number[] = [];
  for (let r = 0; r < heap.rootIds.length; r++) {
    if (!keep(heap.rootKinds.get(r))) continue;
    const v = g.index.get(heap.rootIds.get(r));
    if (v >= 0) out.push(v);
  }
  // Class objects first: a static field is the path a person looks for when a thread also holds the object.
  return out.sort(
    (a, b) => Number(g.kind[b] === ObjectKind.class) - Number(g.kind[a] === ObjectKind.class) || a - b,
  );
}
