import type { RootKind } from './format.ts';
import type { StackFrame } from './threads.ts';

/** Where the GC root of a suspect's path is: a static field, a thread's local variable, a JNI global... */
export interface RootDescription {
  kind: RootKind;
  /** `static CacheLeak.CACHE`, `local variable in LocalListLeak.bufferBatch (LocalListLeak.java:31) of thread "ingest-worker"`. */
  text: string;
  thread?: string;
  frame?: StackFrame;
}

/** A leak suspect as Eclipse MAT's Leak Suspects report defines one, with its evidence. */
export interface HeapSuspect {
  kind: 'object' | 'class';
  className: string;
  instances: number;
  retainedBytes: number;
  /** Of the reachable heap, 0-100, one decimal. */
  percent: number;
  accumulation?: {
    className: string;
    retainedBytes: number;
    percent: number;
    dominatorPath: string[];
    /** The fields from the suspect down to the accumulation point, where each is a direct reference. */
    via: string;
  };
  root?: RootDescription;
  /** From the GC root's object down to the suspect: each object's class and the field it is reached by. */
  path: { className: string; via: string }[];
  /** One line a person can cite: `java.util.HashMap retains 60.6 MB (98.5% of the heap) via static CacheLeak.CACHE`. */
  summary: string;
}

/** Everything memdoctor tells of a heap dump: names, counts and sizes, never a string's or array's content. */
export interface HeapReport {
  dump: {
    version: string;
    idSize: number;
    /** The object layout the shallow sizes assume. */
    sizes: string;
    complete: boolean;
    /** Bytes of the (decompressed) dump read and understood; where a dump cut short ends. */
    bytesRead: number;
    endReason?: string;
  };
  heap: {
    /** Objects and bytes reachable from the GC roots: "the heap" of every percentage. */
    objects: number;
    bytes: number;
    classes: number;
    gcRoots: number;
    unreachable: { objects: number; bytes: number };
    danglingReferences: number;
    /** The dump holds no GC root records (cut before them): classes and unreferenced objects stand in. */
    rootsMissing: boolean;
  };
  /** Reachable objects by class, by shallow bytes, biggest first. */
  histogram: { className: string; instances: number; shallowBytes: number }[];
  suspects: HeapSuspect[];
  /** The thread that threw the OutOfMemoryError, when HotSpot dumped on it. */
  oomThread?: { name: string; frames: StackFrame[] };
  threads: { name: string; frames: number }[];
  /** Systems whose classes are loaded (org.apache.spark -> engine.spark), with their class counts. */
  systems: { fact: string; prefix: string; classes: number }[];
  /** Class names defined by many class loaders (holders.ts LEAKED_LOADERS or more): a class-loader leak. */
  duplicateClasses: { className: string; loaders: number }[];
}

/** `java.util.HashMap.put (HashMap.java:610)`. */
export function frameText(f: StackFrame): string {
  const where =
    f.line > 0
      ? `${f.sourceFile}:${f.line}`
      : f.line === -3
        ? 'Native Method'
        : f.sourceFile || 'Unknown Source';
  return `${f.className}.${f.method} (${where})`;
}
