import { formatSize } from '../units.ts';
import { className0, describeRoot, pathText } from './describe.ts';
import { SubTag } from './format.ts';
import type { HeapGraph } from './graph.ts';
import { type HeapBuilder, ObjectKind } from './heap-builder.ts';
import { edgeName, type PathStep, pathTo, shortestParents } from './paths.ts';
import type { HeapSuspect, RootDescription } from './report.ts';
import type { RawSuspect } from './suspects.ts';
import type { ThreadInfo } from './threads.ts';

/** Roots held by a thread's stack: a path through them is reported only when no other path exists. */
const STACK_ROOTS = new Set<number>([
  SubTag.rootJavaFrame,
  SubTag.rootJniLocal,
  SubTag.rootNativeStack,
  SubTag.rootThreadBlock,
]);

/** What describing a suspect needs. */
export interface SuspectContext {
  heap: HeapBuilder;
  g: HeapGraph;
  threads: ThreadInfo[];
  /** The reachable heap's bytes. */
  total: number;
}

/** MAT's suspects in words: each with its path from a GC root, its accumulation point and a summary. */
export function describeSuspects(ctx: SuspectContext, raw: RawSuspect[]): HeapSuspect[] {
  if (raw.length === 0) return [];
  const { heap, g } = ctx;
  const lasting = shortestParents(
    g,
    rootObjects(heap, g, (kind) => !STACK_ROOTS.has(kind)),
    heap.classes,
  );
  let anyRoot: Int32Array | undefined;
  const pathOf = (node: number): PathStep[] => {
    const path = pathTo(g, lasting, node, heap.classes);
    if (path) return path;
    anyRoot ??= shortestParents(
      g,
      rootObjects(heap, g, () => true),
      heap.classes,
    );
    return pathTo(g, anyRoot, node, heap.classes) ?? [{ node, via: '' }];
  };
  // Equal holders (four threads with the same ThreadLocal) come out in the order of their text.
  return raw
    .map((s) => describeOne(ctx, s, pathOf(s.node)))
    .sort(
      (a, b) =>
        b.retainedBytes - a.retainedBytes || (a.summary < b.summary ? -1 : a.summary > b.summary ? 1 : 0),
    );
}

function describeOne(ctx: SuspectContext, s: RawSuspect, path: PathStep[]): HeapSuspect {
  const { heap, g, total } = ctx;
  const root = describeRoot(heap, g, ctx.threads, path);
  const className = className0(heap, g, s.node);
  const percent = pct(s.retained, total);
  const what = s.kind === 'object' ? className : `${s.instances} instances of ${className}`;
  const via = s.kind === 'object' ? ` via ${holderText(heap, g, s, root, path)}` : '';
  const acc = s.accumulation;
  return {
    kind: s.kind,
    className,
    instances: s.instances,
    retainedBytes: s.retained,
    percent,
    ...(acc && {
      accumulation: {
        className: className0(heap, g, acc.node),
        retainedBytes: acc.retained,
        percent: pct(acc.retained, total),
        dominatorPath: acc.path.map((v) => className0(heap, g, v)),
        via: fieldsAlong(heap, g, acc.path),
      },
    }),
    ...(root && { root }),
    path: path.map((step) => ({ className: className0(heap, g, step.node), via: step.via })),
    summary: `${what} ${s.kind === 'object' ? 'retains' : 'retain'} ${formatSize(s.retained)} (${percent}% of the heap)${via}`,
  };
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
