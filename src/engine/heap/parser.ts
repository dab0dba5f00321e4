import { Cursor, hex, NeedMore, need } from './cursor.ts';
import { HprofFormatError, Tag } from './format.ts';
import type { HprofSink } from './sink.ts';
import { readSubRecord } from './sub-records.ts';

/** Where a read stopped: at the end of a whole dump, or cut short at an offset. */
export interface ReadEnd {
  complete: boolean;
  /** Bytes of the (decompressed) dump read and understood. */
  offset: number;
  /** Why the dump is not whole, when it is not. */
  reason?: string;
}

const LONGEST_HEADER = 32;

/** A push parser: feed it chunks in order, then end(). Throws HprofFormatError on a corrupt record. */
export class HprofParser {
  private cursor: Cursor | undefined;
  private pending: Uint8Array[] = [];
  private segmentEnd = -1;
  private skipLeft = 0;
  private sawHeapDump = false;
  private sawSegment = false;
  private sawEnd = false;
  private lastGood = 0;
  version = '';
  idSize = 0;

  constructor(private readonly sink: HprofSink) {}

  feed(chunk: Uint8Array): void {
    if (!this.cursor) {
      this.pending.push(chunk.slice());
      if (!this.readHeader()) return;
    } else {
      this.cursor.append(chunk);
    }
    this.run(this.cursor as Cursor);
    this.cursor?.detach();
  }

  end(): ReadEnd {
    const c = this.cursor;
    if (!c) return { complete: false, offset: 0, reason: 'the file ends inside the HPROF header' };
    const atBoundary = c.available() === 0 && this.skipLeft === 0;
    // Segmented dumps (1.0.2) end with a HEAP DUMP END record; a single HEAP DUMP record (1.0.1) has none.
    if (atBoundary && this.segmentEnd < 0 && (this.sawEnd || (this.sawHeapDump && !this.sawSegment))) {
      return { complete: true, offset: c.offset };
    }
    const reason = !this.sawHeapDump
      ? 'the dump ends before its first heap dump record'
      : atBoundary
        ? 'the dump ends without its HEAP DUMP END record (the JVM was likely stopped while writing it)'
        : 'the dump is cut short inside a record (the JVM was likely stopped while writing it)';
    return { complete: false, offset: this.lastGood, reason };
  }

  private readHeader(): boolean {
    const joined = concat(this.pending);
    const nul = joined.indexOf(0);
    if (nul < 0 && joined.length < LONGEST_HEADER) return false;
    const version = new TextDecoder('latin1').decode(joined.subarray(0, nul < 0 ? LONGEST_HEADER : nul));
    if (nul < 0 || (version !== 'JAVA PROFILE 1.0.1' && version !== 'JAVA PROFILE 1.0.2')) {
      throw new HprofFormatError(
        0,
        'the header "JAVA PROFILE 1.0.1" or "JAVA PROFILE 1.0.2"',
        JSON.stringify(version.slice(0, 20)),
      );
    }
    if (joined.length < nul + 13) return false;
    const view = new DataView(joined.buffer, joined.byteOffset);
    const idSize = view.getUint32(nul + 1);
    if (idSize !== 4 && idSize !== 8)
      throw new HprofFormatError(nul + 1, 'an identifier size of 4 or 8', String(idSize));
    const timestamp = view.getUint32(nul + 5) * 4294967296 + view.getUint32(nul + 9);
    this.version = version.slice('JAVA PROFILE '.length);
    this.idSize = idSize;
    this.sink.header?.(this.version, idSize, timestamp);
    this.cursor = new Cursor(idSize);
    this.cursor.append(joined);
    this.cursor.skip(nul + 13);
    this.lastGood = nul + 13;
    this.pending = [];
    return true;
  }

  private run(c: Cursor): void {
    for (;;) {
      if (this.skipLeft > 0) {
        const n = Math.min(this.skipLeft, c.available());
        c.skip(n);
        this.skipLeft -= n;
        if (this.skipLeft > 0) return;
        this.lastGood = c.offset;
      }
      if (!this.step(c)) return;
    }
  }

  /**
   * One record or sub-record; false when the window holds too little to finish it (the position is
   * restored). No closure per step: a dump has tens of millions of sub-records.
   */
  private step(c: Cursor): boolean {
    const start = c.pos;
    try {
      if (this.segmentEnd >= 0) this.subRecord(c);
      else this.record(c);
      if (this.skipLeft === 0) this.lastGood = c.offset;
      return true;
    } catch (error) {
      if (!(error instanceof NeedMore)) throw error;
      c.pos = start;
      return false;
    }
  }

  private record(c: Cursor): void {
    need(c, 9);
    const at = c.offset;
    const tag = c.u1();
    c.skip(4);
    const length = c.u4();
    if (tag === Tag.heapDump || tag === Tag.heapDumpSegment) {
      this.sawHeapDump = true;
      if (tag === Tag.heapDumpSegment) this.sawSegment = true;
      this.segmentEnd = c.offset + length;
      if (length === 0) this.segmentEnd = -1;
      return;
    }
    if (tag === Tag.heapDumpEnd) {
      this.sawEnd = true;
      return;
    }
    if (tag === Tag.utf8 || tag === Tag.loadClass || tag === Tag.frame || tag === Tag.trace) {
      need(c, length);
      const bodyStart = c.offset;
      this.smallRecord(c, tag, length);
      const read = c.offset - bodyStart;
      if (read !== length)
        throw new HprofFormatError(
          at,
          `a record of ${length} bytes (tag 0x${hex(tag)})`,
          `${read} bytes of fields`,
        );
      return;
    }
    // Tags HotSpot does not write (alloc sites, CPU samples, ...): the length says how far to skip.
    this.skipLeft = length;
  }

  private smallRecord(c: Cursor, tag: number, length: number): void {
    if (tag === Tag.utf8) {
      const id = c.id();
      const bytes = c.bytes().subarray(c.pos, c.pos + length - c.idSize);
      c.skip(length - c.idSize);
      this.sink.utf8?.(id, new TextDecoder().decode(bytes));
    } else if (tag === Tag.loadClass) {
      const serial = c.u4();
      const classId = c.id();
      c.skip(4);
      const nameId = c.id();
      this.sink.loadClass?.(serial, classId, nameId);
    } else if (tag === Tag.frame) {
      const id = c.id();
      const method = c.id();
      const signature = c.id();
      const source = c.id();
      const classSerial = c.u4();
      const line = c.i4();
      this.sink.frame?.(id, method, signature, source, classSerial, line);
    } else {
      const serial = c.u4();
      const thread = c.u4();
      const count = c.u4();
      const frames: number[] = [];
      for (let i = 0; i < count; i++) frames.push(c.id());
      this.sink.trace?.(serial, thread, frames);
    }
  }

  private subRecord(c: Cursor): void {
    if (c.offset >= this.segmentEnd) {
      if (c.offset > this.segmentEnd) {
        throw new HprofFormatError(
          this.segmentEnd,
          "a sub-record ending at its heap dump segment's end",
          `one ending at ${c.offset}`,
        );
      }
      this.segmentEnd = -1;
      return;
    }
    const skip = readSubRecord(c, this.sink, this.segmentEnd);
    this.skipLeft = skip;
  }
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
