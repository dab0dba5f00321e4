import type { EdgeOut } from './edges.ts';
import { type HeapBuilder, type ObjectColumns, ObjectKind, offsets } from './heap-builder.ts';
import { IdIndex } from './id-index.ts';

/**
 * The object graph in compressed-sparse-row form: object i's references are targets[start[i]..start[i+1]),
 * each with its label (field ordinal, array index or an EdgeLabel), after its reference to its class,
 * which is implied (classEdge). Node n is the virtual GC root, whose references are the distinct
 * objects of the root records.
 */
export interface HeapGraph {
  /** Objects in the dump; the virtual root is node n. */
  n: number;
  ids: Float64Array;
  classOf: Int32Array;
  kind: Uint8Array;
  shallow: Uint32Array | Float64Array;
  start: Uint32Array | Float64Array;
  targets: Int32Array;
  labels: Uint32Array;
  /** References to ids no object has (a dump cut short, or objects the JVM left out). */
  dangling: number;
  index: IdIndex;
  /** The node of each class's class object (-1: none), by class index: the target of implied class edges. */
  classNode: Int32Array;
  /** No root record matched an object (a dump cut before HotSpot writes its roots, after the objects). */
  rootsMissing: boolean;
  /** The stand-in roots then: every class object and every object nothing refers to. */
  fallbackRoots: number[];
}

/**
 * A dump that is not the same in the second pass as in the first: most likely one the JVM was still
 * writing when the read began.
 */
export class DumpChangedError extends Error {
  constructor(object: number) {
    super(
      `the heap dump changed between memdoctor's two reads of it (from object ${object} on), as a dump does while the JVM is still writing it: run again once it is written`,
    );
    this.name = 'DumpChangedError';
  }
}

/**
 * Each object's references, resolved to object indices as they come (in either pass), written in place
 * over the first pass's counts: start[k + 1] still holds object k's count bound while its references come.
 */
export class ResolvedEdges implements EdgeOut {
  objects = 0;
  written = 0;
  dangling = 0;

  constructor(
    private readonly index: IdIndex,
    private readonly start: Uint32Array | Float64Array,
    private readonly targets: Int32Array,
    private readonly labels: Uint32Array,
  ) {}

  add(target: number, label: number): void {
    const v = this.index.get(target);
    if (v < 0) {
      this.dangling++;
      return;
    }
    if (this.written >= (this.start[this.objects + 1] as number)) throw new DumpChangedError(this.objects);
    this.targets[this.written] = v;
    this.labels[this.written++] = label;
  }

  endObject(): void {
    this.start[++this.objects] = this.written;
  }
}

/**
 * Builds the graph from the first pass's rows: every reference resolved to a dense index by `fill`
 * (a second pass over the dump, or the raw identifiers the first pass kept), and the virtual root's edges.
 */
export async function buildGraph(
  heap: HeapBuilder,
  fill: (out: ResolvedEdges, columns: ObjectColumns) => Promise<void>,
): Promise<HeapGraph> {
  const columns = heap.finish();
  const { n, ids, kind, start } = columns;
  // Class objects come first in HotSpot's dumps, out of the address order of the objects after them.
  const index = new IdIndex(ids, (row) => kind[row] === ObjectKind.class);
  let rootTargets = distinctRoots(heap, index);
  // With no root records, every object may stand in as a root.
  const targets = new Int32Array(columns.edges + (rootTargets.length > 0 ? rootTargets.length : n));
  const labels = new Uint32Array(targets.length);
  const out = new ResolvedEdges(index, start, targets, labels);
  await fill(out, columns);
  if (out.objects !== n) throw new DumpChangedError(out.objects);
  classObjects(heap, columns);
  const classNode = Int32Array.from(heap.classes, (c) => index.get(c.id));
  let m = out.written;
  const rootsMissing = rootTargets.length === 0;
  if (rootsMissing) rootTargets = standInRoots(kind, targets.subarray(0, m));
  for (const target of rootTargets) targets[m++] = target;
  start[n + 1] = m;
  return {
    n,
    ids,
    classOf: columns.classOf,
    kind,
    shallow: columns.shallow,
    start,
    targets: targets.subarray(0, m),
    labels: labels.subarray(0, m),
    dangling: out.dangling,
    index,
    classNode,
    rootsMissing,
    fallbackRoots: rootsMissing ? rootTargets : [],
  };
}

/**
 * The implied reference of object v to its class object (every object but a class object has one when
 * its class is in the dump), or -1. It comes before v's stored references, as it was read.
 */
export function classEdge(g: Pick<HeapGraph, 'kind' | 'classOf' | 'classNode'>, v: number): number {
  const c = g.classOf[v] as number;
  if (c < 0 || g.kind[v] === ObjectKind.class) return -1;
  return g.classNode[c] as number;
}

/** A class object is one java.lang.Class instance: its class and shallow size. */
function classObjects(heap: HeapBuilder, columns: ObjectColumns): void {
  const { classOf } = columns;
  const javaLangClass = heap.classes.findIndex((c) => c.name === 'java.lang.Class');
  const classObjectSize = heap.instanceShallow(javaLangClass);
  for (let i = 0; i < columns.n; i++) {
    if (columns.kind[i] !== ObjectKind.class) continue;
    classOf[i] = javaLangClass;
    columns.shallow[i] = classObjectSize;
  }
}

function standInRoots(kind: Uint8Array, targets: Int32Array): number[] {
  const referenced = new Uint8Array(kind.length);
  for (const t of targets) referenced[t] = 1;
  const out: number[] = [];
  for (let i = 0; i < kind.length; i++) if (kind[i] === ObjectKind.class || referenced[i] === 0) out.push(i);
  return out;
}

/**
 * The objects of the root records, every class of the bootstrap loader (class loader id 0) and every
 * array class: HotSpot writes ROOT STICKY CLASS only for the bootstrap loader's instance classes, yet
 * its array classes live as long as the JVM (Eclipse MAT counts every bootstrap class as a system-class
 * root), and an array class is referenced by nothing in a dump but its instances: one array would
 * otherwise "retain" its class, which VisualVM's heap library does not count either.
 */
function distinctRoots(heap: HeapBuilder, index: IdIndex): number[] {
  const seen = new Set<number>();
  if (heap.rootIds.length === 0) return [];
  for (const c of heap.classes) {
    const target = c.loaderId === 0 || c.name.endsWith('[]') ? index.get(c.id) : -1;
    if (target >= 0) seen.add(target);
  }
  for (let r = 0; r < heap.rootIds.length; r++) {
    const target = index.get(heap.rootIds.get(r));
    if (target >= 0) seen.add(target);
  }
  return [...seen].sort((a, b) => a - b);
}

/**
 * Reverse edges, for the dominator computation, implied class edges included: preds[predStart[i]..
 * predStart[i+1]) point at i, in ascending order. Each count becomes its range's end, and the edges,
 * walked backwards, fill each range from its end down to its start: no second array of offsets.
 */
export function predecessors(g: HeapGraph): { predStart: Uint32Array | Float64Array; preds: Int32Array } {
  const total = g.n + 1;
  let m = g.targets.length;
  for (let v = 0; v < g.n; v++) if (classEdge(g, v) >= 0) m++;
  const predStart = offsets(total + 1, m);
  const count = (w: number) => {
    predStart[w] = (predStart[w] as number) + 1;
  };
  for (let v = 0; v < g.n; v++) {
    const c = classEdge(g, v);
    if (c >= 0) count(c);
  }
  for (let e = 0; e < g.targets.length; e++) count(g.targets[e] as number);
  for (let i = 1; i < total; i++) predStart[i] = (predStart[i] as number) + (predStart[i - 1] as number);
  predStart[total] = m;
  const preds = new Int32Array(m);
  const place = (v: number, w: number) => {
    const at = (predStart[w] as number) - 1;
    preds[at] = v;
    predStart[w] = at;
  };
  for (let v = total - 1; v >= 0; v--) {
    for (let e = (g.start[v + 1] as number) - 1; e >= (g.start[v] as number); e--)
      place(v, g.targets[e] as number);
    const c = v < g.n ? classEdge(g, v) : -1;
    if (c >= 0) place(v, c);
  }
  return { predStart, preds };
}
