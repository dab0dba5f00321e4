import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { builderSink } from './builder-sink.ts';
import { edgeSink, replayRawEdges } from './edge-pass.ts';
import { buildGraph, type HeapGraph } from './graph.ts';
import { HeapBuilder } from './heap-builder.ts';
import { HprofParser, type ReadEnd } from './parser.ts';
import type { HprofSink } from './sink.ts';

/** A way to read the dump from its start, as often as a pass needs (the file, or its gzip). */
export type DumpSource = () => AsyncIterable<Uint8Array>;

/**
 * What each pass over a dump reads, in order. A source read again (a file) takes all three; a pipe
 * is read once, its first pass keeping the references too, and its threads keep their serial numbers.
 */
export const PASSES = ['objects', 'references', 'thread names'] as const;

/** How far a read has gone: `bytesRead` of the dump (decompressed) into pass `pass` (1-based) of `passes`. */
export interface PassRead {
  pass: number;
  passes: number;
  what: (typeof PASSES)[number];
  bytesRead: number;
}

/** Told of the read's progress, pass by pass. */
export type Progress = (read: PassRead) => void;

/** One pass's byte counter, told to `progress` as pass `pass` of those a read makes (1 when read once). */
export function passCounter(
  progress: Progress | undefined,
  pass: 1 | 2 | 3,
  readOnce: boolean,
): ((bytesRead: number) => void) | undefined {
  if (!progress) return undefined;
  const passes = readOnce ? 1 : PASSES.length;
  const what = PASSES[pass - 1] as PassRead['what'];
  return (bytesRead) => progress({ pass, passes, what, bytesRead });
}

/** gzip's magic number: `jcmd GC.heap_dump -gz=N` writes gzip members, as does `gzip`. */
function isGzip(chunk: Uint8Array): boolean {
  return chunk[0] === 0x1f && chunk[1] === 0x8b;
}

/** The dump's bytes, decompressed when gzip (every member of a multi-member file, as jcmd -gz writes). */
export async function* dumpBytes(source: DumpSource): AsyncIterable<Uint8Array> {
  const iterator = source()[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) return;
  const rest: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: () => iterator };
  async function* all(): AsyncIterable<Uint8Array> {
    yield first.value as Uint8Array;
    yield* rest;
  }
  // zlib may still hold a chunk when the next is asked for, and a file reader may reuse a chunk's
  // memory then (src/file-chunks.ts): gzip input goes in as copies.
  async function* copies(): AsyncIterable<Uint8Array> {
    for await (const chunk of all()) yield chunk.slice();
  }
  if (!isGzip(first.value)) {
    yield* all();
    return;
  }
  const gunzip = Readable.from(copies()).pipe(createGunzip({ chunkSize: 1 << 20 }));
  try {
    for await (const chunk of gunzip) yield chunk as Uint8Array;
  } catch (error) {
    // A gzip cut short ends like a dump cut short: what was inflated so far is read.
    if ((error as NodeJS.ErrnoException).code !== 'Z_BUF_ERROR') throw error;
  }
}

/** One pass over the dump with a sink; returns where it ended. */
export async function readPass(
  source: DumpSource,
  sink: HprofSink,
  progress?: (bytesRead: number) => void,
): Promise<{ end: ReadEnd; parser: HprofParser }> {
  const parser = new HprofParser(sink);
  let read = 0;
  for await (const chunk of dumpBytes(source)) {
    parser.feed(chunk);
    read += chunk.length;
    progress?.(read);
  }
  return { end: parser.end(), parser };
}

/**
 * The object graph of a dump. Read twice when the source can be read again (a file, plain or gzip):
 * the first pass keeps one row per object (identifier, class, kind, size, reference count), the second
 * resolves each reference straight to an object index in exact-size arrays. A dump read once (from a
 * pipe) keeps every reference's identifier in the first pass instead, which costs more memory.
 */
export async function readHeap(
  source: DumpSource,
  progress?: Progress,
  readOnce = false,
): Promise<{ heap: HeapBuilder; graph: HeapGraph; end: ReadEnd; version: string }> {
  const target: { heap?: HeapBuilder } = {};
  const { end, parser } = await readPass(
    source,
    builderSink(target, readOnce),
    passCounter(progress, 1, readOnce),
  );
  const heap = target.heap ?? new HeapBuilder(8);
  const graph = await buildGraph(heap, async (out, columns) => {
    if (readOnce) replayRawEdges(heap, columns, out);
    else await readPass(source, edgeSink(heap, columns, out), passCounter(progress, 2, readOnce));
  });
  return { heap, graph, end, version: parser.version };
}
