import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/** Real dumps from live JDK 17 JVMs: test/fixtures/heap-dumps/SOURCES.md. */
export const HEAP_DUMPS = new URL('../fixtures/heap-dumps/', import.meta.url);

/** A fixture's bytes as committed (gzip). */
export function heapDumpFixture(name: string): Buffer {
  return readFileSync(new URL(name, HEAP_DUMPS));
}

/** HPROF's header before the first record: "JAVA PROFILE 1.0.2\0", the id size (4), the time (8). */
const HEADER_BYTES = 31;
const HEAP_DUMP = 0x0c;
const HEAP_DUMP_SEGMENT = 0x1c;

/**
 * A real dump made corrupt the way a bad copy does: the first sub-record tag of its first heap dump
 * segment overwritten with 0x77, which no sub-record has. Returns the bytes and that byte's offset.
 */
export function corruptedDump(name = 'static-cache-oom.hprof.gz'): { bytes: Buffer; offset: number } {
  const bytes = gunzipSync(heapDumpFixture(name));
  // Each record: a tag (1 byte), a time offset (4), the body's length (4), the body.
  for (let at = HEADER_BYTES; at + 9 <= bytes.length; at += 9 + bytes.readUInt32BE(at + 5)) {
    const tag = bytes[at];
    if (tag !== HEAP_DUMP && tag !== HEAP_DUMP_SEGMENT) continue;
    bytes[at + 9] = 0x77;
    return { bytes, offset: at + 9 };
  }
  throw new Error(`${name}: no heap dump record`);
}
