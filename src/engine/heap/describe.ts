import { ROOT_KINDS, rootKindIndex, SubTag } from './format.ts';
import type { HeapGraph } from './graph.ts';
import { type HeapBuilder, ObjectKind } from './heap-builder.ts';
import type { PathStep } from './paths.ts';
import { frameText, type RootDescription } from './report.ts';
import type { ThreadInfo } from './threads.ts';

/** Root kinds a person can act on first: a Thread is named as the thread, not as a local of its own run(). */
const PREFERENCE = [
  SubTag.rootThreadObject,
  SubTag.rootJavaFrame,
  SubTag.rootJniLocal,
  SubTag.rootNativeStack,
  SubTag.rootJniGlobal,
  SubTag.rootThreadBlock,
  SubTag.rootMonitorUsed,
  SubTag.rootStickyClass,
  SubTag.rootUnknown,
];

/** The best root record of an object: kind, thread serial and frame. */
export function rootRecordOf(
  heap: HeapBuilder,
  id: number,
): { kind: number; thread: number; frame: number } | undefined {
  let best: { kind: number; thread: number; frame: number } | undefined;
  for (let r = 0; r < heap.rootIds.length; r++) {
    if (heap.rootIds.get(r) !== id) continue;
    const kind = heap.rootKinds.get(r);
    if (!best || PREFERENCE.indexOf(kind as never) < PREFERENCE.indexOf(best.kind as never)) {
      best = { kind, thread: heap.rootThreads.get(r), frame: heap.rootFrames.get(r) };
    }
  }
  return best;
}

/** The GC root a path starts from, in words. */
export function describeRoot(
  heap: HeapBuilder,
  g: HeapGraph,
  threads: ThreadInfo[],
  path: PathStep[],
): RootDescription | undefined {
  const first = path[0];
  if (!first) return undefined;
  const record = rootRecordOf(heap, g.ids[first.node] as number);
  const kind = record ? (ROOT_KINDS[rootKindIndex(record.kind)] ?? 'unknown') : 'system class';
  const holder = lastStatic(g, path);
  if (holder >= 0) {
    const owner = classNameOfClassObject(heap, g, (path[holder] as PathStep).node);
    return { kind, text: `static ${owner}.${(path[holder + 1] as PathStep).via}` };
  }
  if (!record) return undefined;
  return recordText(
    record,
    kind,
    threads.find((t) => t.serial === record.thread),
    className0(heap, g, first.node),
  );
}

/** A root record in words: the thread, its frame for a local, or the kind and the object's class. */
function recordText(
  record: { kind: number; frame: number },
  kind: RootDescription['kind'],
  thread: ThreadInfo | undefined,
  className: string,
): RootDescription {
  const threadName = thread ? `thread "${thread.name}"` : '';
  switch (record.kind) {
    case SubTag.rootJavaFrame: {
      const frame = thread?.frames[record.frame];
      const where = frame ? `in ${frameText(frame)} ` : '';
      return {
        kind,
        text: `local variable ${where}of ${threadName}`.trim(),
        ...(thread && { thread: thread.name }),
        ...(frame && { frame }),
      };
    }
    case SubTag.rootThreadObject:
      return { kind, text: threadName || `thread ${className}`, ...(thread && { thread: thread.name }) };
    case SubTag.rootJniLocal:
    case SubTag.rootNativeStack:
    case SubTag.rootThreadBlock:
      return { kind, text: `${kind} of ${threadName}`, ...(thread && { thread: thread.name }) };
    case SubTag.rootStickyClass:
      return { kind, text: className };
    default:
      return { kind, text: `${kind} reference to ${className}` };
  }
}

/**
 * The last class object on the path whose static field the path goes through: while its class stays
 * loaded, that field holds everything below it, so it is the holder a person looks for (MAT's paths
 * show the same class object, then how its class loader is reached).
 */
export function lastStatic(g: HeapGraph, path: PathStep[]): number {
  for (let k = path.length - 2; k >= 0; k--) {
    const next = path[k + 1] as PathStep;
    if (g.kind[(path[k] as PathStep).node] === ObjectKind.class && !next.via.startsWith('<')) return k;
  }
  return -1;
}

/** The class name of an object; a class object is `class <its name>`. */
export function className0(heap: HeapBuilder, g: HeapGraph, node: number): string {
  if (g.kind[node] === ObjectKind.class) return `class ${classNameOfClassObject(heap, g, node)}`;
  return heap.classes[g.classOf[node] as number]?.name ?? '<unknown class>';
}

function classNameOfClassObject(heap: HeapBuilder, g: HeapGraph, node: number): string {
  const index = heap.classIndex.get(g.ids[node] as number);
  return index === undefined ? '?' : (heap.classes[index]?.name ?? '?');
}

/** `static CacheLeak.CACHE` then `.table[3].value`: the root and the fields after it. */
export function pathText(root: RootDescription | undefined, path: PathStep[], g: HeapGraph): string {
  const holder = lastStatic(g, path);
  const rest = path
    .slice(holder >= 0 ? holder + 2 : 1)
    .map((s) => (s.via.startsWith('[') ? s.via : `.${s.via}`));
  return `${root?.text ?? 'an unknown root'}${rest.length > 0 ? ` → ${rest.join('')}` : ''}`;
}
