import { classEdge, type HeapGraph } from './graph.ts';
import { type ClassInfo, EdgeLabel, ObjectKind } from './heap-builder.ts';

/** One step of a path: the object reached, and the field (or array slot) of the previous one it is in. */
export interface PathStep {
  node: number;
  /** `CACHE`, `table`, `[12]`, `<class>`; empty for the first object. */
  via: string;
}

/**
 * Breadth-first parents from a set of start objects: parent[v] is the object one step nearer a start
 * (-2 for a start, -1 when not reached). Reference.referent is not followed: a weak, soft or phantom
 * reference does not keep an object alive, as MAT's paths to GC roots leave such references out.
 */
export function shortestParents(g: HeapGraph, starts: Iterable<number>, classes: ClassInfo[]): Int32Array {
  const parent = new Int32Array(g.n).fill(-1);
  const queue = new Int32Array(g.n);
  let head = 0;
  let tail = 0;
  for (const s of starts) {
    if (parent[s] !== -1) continue;
    parent[s] = -2;
    queue[tail++] = s;
  }
  const skipLabel = referentLabels(classes);
  while (head < tail) {
    const v = queue[head++] as number;
    const skip = g.kind[v] === ObjectKind.instance ? skipLabel.get(g.classOf[v] as number) : undefined;
    for (let e = g.start[v] as number; e < (g.start[v + 1] as number); e++) {
      const w = g.targets[e] as number;
      if (parent[w] !== -1 || w >= g.n) continue;
      if (skip !== undefined && g.labels[e] === skip) continue;
      parent[w] = v;
      queue[tail++] = w;
    }
  }
  return parent;
}

/** For each subclass of java.lang.ref.Reference, the ordinal of its `referent` reference field. */
function referentLabels(classes: ClassInfo[]): Map<number, number> {
  const byId = new Map(classes.map((c, i) => [c.id, i]));
  const out = new Map<number, number>();
  classes.forEach((c, i) => {
    for (
      let s: ClassInfo | undefined = c;
      s;
      s = byId.has(s.superId) ? classes[byId.get(s.superId) as number] : undefined
    ) {
      if (s.name !== 'java.lang.ref.Reference') continue;
      const ordinal = c.layout?.refNames.lastIndexOf('referent') ?? -1;
      if (ordinal >= 0) out.set(i, ordinal);
      break;
    }
  });
  return out;
}

/** The path from a start object down to target, with the field each step goes through. */
export function pathTo(
  g: HeapGraph,
  parent: Int32Array,
  target: number,
  classes: ClassInfo[],
): PathStep[] | undefined {
  if (parent[target] === -1) return undefined;
  const nodes: number[] = [];
  for (let v = target; v !== -2; v = parent[v] as number) nodes.push(v);
  nodes.reverse();
  return nodes.map((node, i) => ({
    node,
    via: i === 0 ? '' : edgeName(g, nodes[i - 1] as number, node, classes),
  }));
}

/** The name of the reference from one object to another: its class, a field, a static field or an array slot. */
export function edgeName(g: HeapGraph, from: number, to: number, classes: ClassInfo[]): string {
  if (from < g.n && classEdge(g, from) === to) return '<class>';
  for (let e = g.start[from] as number; e < (g.start[from + 1] as number); e++) {
    if (g.targets[e] !== to) continue;
    return labelName(g, from, g.labels[e] as number, classes);
  }
  return '?';
}

function labelName(g: HeapGraph, from: number, label: number, classes: ClassInfo[]): string {
  if (label === EdgeLabel.classOf) return '<class>';
  if (label === EdgeLabel.superclass) return '<super>';
  if (label === EdgeLabel.loader) return '<classloader>';
  const kind = g.kind[from];
  if (kind === ObjectKind.objectArray) return `[${label}]`;
  if (kind === ObjectKind.class) {
    const own = classes.find((c) => c.id === g.ids[from]);
    return own?.staticNames[label] ?? `<static ${label}>`;
  }
  const info = classes[g.classOf[from] as number];
  return info?.layout?.refNames[label] ?? `<field ${label}>`;
}
