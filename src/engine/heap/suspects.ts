import type { Dominators } from './dominators.ts';
import type { HeapGraph } from './graph.ts';

/**
 * Eclipse MAT's leak suspects (org.eclipse.mat.inspections.FindLeaksQuery, run by the Leak Suspects
 * report with threshold_percent=10, big_drop_ratio=0.7): among the top of the dominator tree (objects
 * whose immediate dominator is the GC roots), a single object retaining more than the threshold is a
 * suspect; the others are grouped by class, and a class whose instances together retain more is one.
 */
export const SUSPECT_THRESHOLD = 0.1;
/** MAT's big_drop_ratio: the accumulation point is where the biggest child retains less than 70%. */
export const BIG_DROP_RATIO = 0.7;
/** MAT's MAX_DEPTH for the walk down to the accumulation point. */
const MAX_DEPTH = 1000;

export interface RawSuspect {
  kind: 'object' | 'class';
  /** The object (kind object) or one instance of the class with the largest retained size. */
  node: number;
  classIndex: number;
  instances: number;
  retained: number;
  /** The accumulation point below the suspect (MAT's), and the dominator path down to it. */
  accumulation?: { node: number; retained: number; path: number[] };
}

export interface DominatorView {
  dom: Dominators;
  retained: Float64Array;
  childStart: Int32Array;
  children: Int32Array;
}

/** Suspects by MAT's rules, biggest first. total: the reachable heap's bytes. */
export function findSuspects(g: HeapGraph, view: DominatorView, total: number): RawSuspect[] {
  const threshold = SUSPECT_THRESHOLD * total;
  const root = g.n;
  const out: RawSuspect[] = [];
  const groups = new Map<number, { retained: number; instances: number; biggest: number }>();
  for (let e = view.childStart[root] as number; e < (view.childStart[root + 1] as number); e++) {
    const v = view.children[e] as number;
    const retained = view.retained[v] as number;
    const classIndex = g.classOf[v] as number;
    if (retained > threshold) {
      out.push({
        kind: 'object',
        node: v,
        classIndex,
        instances: 1,
        retained,
        accumulation: accumulationPoint(view, v),
      });
      continue;
    }
    const group = groups.get(classIndex) ?? { retained: 0, instances: 0, biggest: v };
    group.retained += retained;
    group.instances++;
    if (retained > (view.retained[group.biggest] as number)) group.biggest = v;
    groups.set(classIndex, group);
  }
  for (const [classIndex, group] of groups) {
    if (group.retained <= threshold) continue;
    out.push({
      kind: 'class',
      node: group.biggest,
      classIndex,
      instances: group.instances,
      retained: group.retained,
    });
  }
  return out.sort((a, b) => b.retained - a.retained || a.node - b.node);
}

/** Walks down the biggest child while it keeps at least 70% of its parent's retained size. */
export function accumulationPoint(view: DominatorView, start: number): RawSuspect['accumulation'] {
  let node = start;
  const path = [node];
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const child = biggestChild(view, node);
    if (child < 0) return { node, retained: view.retained[node] as number, path };
    if ((view.retained[child] as number) / (view.retained[node] as number) < BIG_DROP_RATIO) {
      return { node, retained: view.retained[node] as number, path };
    }
    node = child;
    path.push(node);
  }
  return undefined;
}

function biggestChild(view: DominatorView, v: number): number {
  let best = -1;
  for (let e = view.childStart[v] as number; e < (view.childStart[v + 1] as number); e++) {
    const c = view.children[e] as number;
    if (best < 0 || (view.retained[c] as number) > (view.retained[best] as number)) best = c;
  }
  return best;
}
