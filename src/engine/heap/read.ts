import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { HeapBuilder } from './heap-builder.ts';
import { HprofParser, type ReadEnd } from './parser.ts';
import type { HprofSink } from './sink.ts';

/** A way to read the dump from its start, as often as a pass needs (the file, or its gzip). */
export type DumpSource = () => AsyncIterable<Uint8Array>;

/** Progress of a pass: bytes of the dump (decompressed) read so far. */
export type Progress = (bytesRead: number) => void;

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
  progress?: Progress,
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

/** The first pass: the whole graph, names, roots, threads and stacks into a HeapBuilder. */
export async function readHeap(
  source: DumpSource,
  progress?: Progress,
): Promise<{ heap: HeapBuilder; end: ReadEnd; version: string }> {
  let heap: HeapBuilder | undefined;
  const sink: HprofSink = {
    header: (_version, idSize) => {
      heap = new HeapBuilder(idSize);
    },
    utf8: (id, text) => heap?.symbols.set(id, text),
    loadClass: (serial, classId, nameId) => heap?.addLoadClass(serial, classId, nameId),
    frame: (id, method, signature, sourceFile, classSerial, line) => {
      const h = heap as HeapBuilder;
      h.frames.set(id, {
        method: h.symbol(method),
        signature: h.symbol(signature),
        sourceFile: sourceFile === 0 ? '' : h.symbol(sourceFile),
        classSerial,
        line,
      });
    },
    trace: (serial, threadSerial, frameIds) => heap?.traces.set(serial, { threadSerial, frameIds }),
    root: (kind, id, thread, frame, trace) => {
      const h = heap as HeapBuilder;
      h.addRoot(kind, id, thread, frame);
      if (kind === 0x08) h.threads.set(thread, { objectId: id, traceSerial: trace });
    },
    classDump: (info, statics) => {
      const h = heap as HeapBuilder;
      h.addClass(
        {
          ...info,
          fields: info.fields.map((f) => ({ name: h.symbol(f.nameId), type: f.type })),
          staticNames: statics.map((s) => h.symbol(s.nameId)),
        },
        statics.map((s) => ({ name: h.symbol(s.nameId), type: s.type, id: s.id })),
      );
    },
    instance: (id, classId, length, refAt) => (heap as HeapBuilder).addInstance(id, classId, length, refAt),
    objectArray: (id, classId, length, elementAt) => {
      const h = heap as HeapBuilder;
      h.startObjectArray(id, classId, length);
      for (let i = 0; i < length; i++) h.addElement(elementAt(i), i);
      h.endObject();
    },
    primitiveArray: (id, type, length) => heap?.addPrimitiveArray(id, type, length),
  };
  const { end, parser } = await readPass(source, sink, progress);
  if (!heap) heap = new HeapBuilder(8);
  return { heap, end, version: parser.version };
}
