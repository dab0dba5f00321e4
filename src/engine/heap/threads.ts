import type { HeapGraph } from './graph.ts';
import type { HeapBuilder } from './heap-builder.ts';
import { type DumpSource, readPass } from './read.ts';

/** One frame of a thread's stack, from the STACK TRACE and STACK FRAME records. */
export interface StackFrame {
  className: string;
  method: string;
  sourceFile: string;
  /** A line number; -1 unknown, -2 compiled, -3 native (HPROF's conventions). */
  line: number;
}

/** A thread of the dump: its serial number, name (when its String could be read) and stack. */
export interface ThreadInfo {
  serial: number;
  name: string;
  objectIndex: number;
  frames: StackFrame[];
}

/** Threads from the ROOT THREAD OBJECT records, with their stacks; names are filled in by threadNames. */
export function threadsOf(heap: HeapBuilder, g: HeapGraph): ThreadInfo[] {
  const out: ThreadInfo[] = [];
  for (const [serial, thread] of heap.threads) {
    const trace = heap.traces.get(thread.traceSerial);
    const frames = (trace?.frameIds ?? []).map((id) => frameOf(heap, id));
    out.push({ serial, name: `thread #${serial}`, objectIndex: g.index.get(thread.objectId), frames });
  }
  return out.sort((a, b) => a.serial - b.serial);
}

function frameOf(heap: HeapBuilder, id: number): StackFrame {
  const f = heap.frames.get(id);
  if (!f) return { className: '?', method: '?', sourceFile: '', line: -1 };
  const classId = heap.classSerials.get(f.classSerial);
  const className = classId === undefined ? '?' : (heap.classNames.get(classId) ?? '?');
  return { className, method: f.method, sourceFile: f.sourceFile, line: f.line };
}

/**
 * HotSpot, dumping on an OutOfMemoryError, puts a frame for OutOfMemoryError.<init> on top of the stack
 * of the thread that threw it (heapDumper.cpp, VM_HeapDumper's _oome_constructor).
 */
export function oomThread(threads: ThreadInfo[]): ThreadInfo | undefined {
  return threads.find(
    (t) => t.frames[0]?.className === 'java.lang.OutOfMemoryError' && t.frames[0]?.method === '<init>',
  );
}

/** Follows a reference field by name from an instance; -1 when null or absent. */
export function fieldTarget(g: HeapGraph, heap: HeapBuilder, node: number, field: string): number {
  if (node < 0) return -1;
  const info = heap.classes[g.classOf[node] as number];
  const ordinal = info?.layout?.refNames.lastIndexOf(field) ?? -1;
  if (ordinal < 0) return -1;
  for (let e = g.start[node] as number; e < (g.start[node + 1] as number); e++) {
    if (g.labels[e] === ordinal) return g.targets[e] as number;
  }
  return -1;
}

/**
 * Thread names: java.lang.Thread.name is a String whose `value` is a byte[] (JDK 9+, Latin-1 or UTF-16)
 * or a char[] (JDK 8). Those arrays' contents are the only array contents memdoctor reads, in a second
 * pass that hands over no other array's bytes.
 */
export async function threadNames(
  source: DumpSource,
  heap: HeapBuilder,
  g: HeapGraph,
  threads: ThreadInfo[],
  progress?: (bytesRead: number) => void,
): Promise<void> {
  const wanted = new Map<number, ThreadInfo>();
  for (const t of threads) {
    const array = fieldTarget(g, heap, fieldTarget(g, heap, t.objectIndex, 'name'), 'value');
    if (array >= 0) wanted.set(g.ids[array] as number, t);
  }
  if (wanted.size === 0) return;
  await readPass(
    source,
    {
      wantsContent: (id) => wanted.has(id),
      content: (id, type, bytes) => {
        const t = wanted.get(id);
        if (t) t.name = decodeName(type, bytes);
      },
    },
    progress,
  );
}

function decodeName(type: number, bytes: Uint8Array): string {
  if (type === 5) return new TextDecoder('utf-16be').decode(bytes);
  // A compact String's coder is not read: a byte[] of UTF-16 has a zero in every other byte for ASCII names.
  const utf16 =
    bytes.length % 2 === 0 &&
    bytes.length > 0 &&
    bytes.every((b, i) => i % 2 === 1 || b !== 0) &&
    bytes.every((b, i) => i % 2 === 0 || b === 0);
  return new TextDecoder(utf16 ? 'utf-16le' : 'latin1').decode(bytes);
}
