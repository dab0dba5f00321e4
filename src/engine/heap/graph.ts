import { type HeapBuilder, ObjectKind } from './heap-builder.ts';
import { IdIndex } from './id-index.ts';

/**
 * The object graph in compressed-sparse-row form: object i's references are targets[start[i]..start[i+1]),
 * each with its label (field ordinal, array index or an EdgeLabel). Node n is the virtual GC root, whose
 * references are the distinct objects of the root records.
 */
export interface HeapGraph {
  /** Objects in the dump; the virtual root is node n. */
  n: number;
  ids: Float64Array;
  classOf: Int32Array;
  kind: Uint8Array;
  shallow: Float64Array;
  start: Float64Array;
  targets: Int32Array;
  labels: Uint32Array;
  /** References to ids no object has (a dump cut short, or objects the JVM left out). */
  dangling: number;
  index: IdIndex;
  /** No root record matched an object (a dump cut before HotSpot writes its roots, after the objects). */
  rootsMissing: boolean;
  /** The stand-in roots then: every class object and every object nothing refers to. */
  fallbackRoots: number[];
}

/** Resolves every reference to a dense index and adds the virtual root's edges. */
export function buildGraph(heap: HeapBuilder): HeapGraph {
  const ids = heap.ids.toArray();
  const n = ids.length;
  const index = new IdIndex(ids);
  const { classOf, kind, shallow } = objectColumns(heap);
  const { start, targets, labels, dangling } = resolveEdges(heap, index, n);
  let m = start[n] as number;
  let rootTargets = distinctRoots(heap, index);
  const rootsMissing = rootTargets.length === 0;
  if (rootsMissing) rootTargets = standInRoots(kind, targets.subarray(0, m));
  for (const target of rootTargets) targets[m++] = target;
  start[n + 1] = m;
  return {
    n,
    ids,
    classOf,
    kind,
    shallow,
    start,
    targets: targets.subarray(0, m),
    labels: labels.subarray(0, m),
    dangling,
    index,
    rootsMissing,
    fallbackRoots: rootsMissing ? rootTargets : [],
  };
}

/** Class, kind and shallow size per object; a class object is one java.lang.Class instance. */
function objectColumns(heap: HeapBuilder): { classOf: Int32Array; kind: Uint8Array; shallow: Float64Array } {
  const classOf = heap.classOf.toArray();
  const kind = heap.kind.toArray();
  const shallow = heap.shallow.toArray();
  const javaLangClass = heap.classes.findIndex((c) => c.name === 'java.lang.Class');
  const classObjectSize = heap.instanceShallow(javaLangClass);
  for (let i = 0; i < kind.length; i++) {
    if (kind[i] !== ObjectKind.class) continue;
    classOf[i] = javaLangClass;
    shallow[i] = classObjectSize;
  }
  return { classOf, kind, shallow };
}

/**
 * Every object's references as indices, dangling ones counted and dropped; room is left after them
 * for the virtual root's edges (at most one per object).
 */
function resolveEdges(heap: HeapBuilder, index: IdIndex, n: number) {
  const ends = heap.edgeEnd.toArray();
  const start = new Float64Array(n + 2);
  const targets = new Int32Array(heap.edgeTarget.length + n);
  const labels = new Uint32Array(targets.length);
  let m = 0;
  let dangling = 0;
  let from = 0;
  for (let i = 0; i < n; i++) {
    start[i] = m;
    const to = ends[i] as number;
    for (let e = from; e < to; e++) {
      const target = index.get(heap.edgeTarget.get(e));
      if (target < 0) {
        dangling++;
        continue;
      }
      targets[m] = target;
      labels[m++] = heap.edgeLabel.get(e);
    }
    from = to;
  }
  start[n] = m;
  return { start, targets, labels, dangling };
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

/** Reverse edges, for the dominator computation: preds[predStart[i]..predStart[i+1]) point at i. */
export function predecessors(g: HeapGraph): { predStart: Float64Array; preds: Int32Array } {
  const total = g.n + 1;
  const predStart = new Float64Array(total + 1);
  for (let e = 0; e < g.targets.length; e++) {
    const w = (g.targets[e] as number) + 1;
    predStart[w] = (predStart[w] as number) + 1;
  }
  for (let i = 0; i < total; i++) predStart[i + 1] = (predStart[i + 1] as number) + (predStart[i] as number);
  const fill = predStart.slice(0, total);
  const preds = new Int32Array(g.targets.length);
  for (let v = 0; v < total; v++) {
    for (let e = g.start[v] as number; e < (g.start[v + 1] as number); e++) {
      const w = g.targets[e] as number;
      const at = fill[w] as number;
      preds[at] = v;
      fill[w] = at + 1;
    }
  }
  return { predStart, preds };
}
