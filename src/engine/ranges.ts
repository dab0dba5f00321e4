import { collectPart, type PartLimits, type RangeFacts } from './block-read.ts';
import type { Extractor } from './extractors/types.ts';

/**
 * An input that other threads can read for themselves from any byte offset (a file on disk): they
 * read its ranges from it, so no byte of the rest passes through the thread that reads in order.
 */
export interface SeekableInput {
  /** Where the other threads find it (a file's path); the engine only passes it on. */
  locator: string;
  /** Its size in bytes when it was opened; bytes added later go to the range that reaches its end. */
  size: number;
  /** Its bytes from `from` on, in chunks (for a range this thread must read itself). */
  read(from: number): AsyncIterable<Uint8Array>;
  /**
   * What the other threads check the input they open against (a file's device and inode): a file
   * renamed over it meanwhile (log rotation) is refused, not read into the same report.
   */
  identity?: string;
}

/**
 * A range of a seekable input: the lines that start at a byte in [start, end), each read to its
 * newline even past `end`; without `end`, every line to the input's end. Ranges that meet share no
 * line and miss none, wherever their bounds fall.
 */
export interface RangeJob extends PartLimits {
  locator: string;
  /** SeekableInput.identity, when it has one. */
  identity?: string;
  start: number;
  end?: number;
  /** True when a line starts at `start` (the first range); else the line holding `start - 1` belongs to the range before. */
  atLineStart: boolean;
}

/** The offset a range's bytes are read from: one byte early when `start` may fall inside a line. */
export function readFrom(range: Pick<RangeJob, 'start' | 'atLineStart'>): number {
  return range.atLineStart ? range.start : range.start - 1;
}

const NEWLINE = 0x0a;

/**
 * Cuts a range's own lines out of the bytes read from readFrom(range) on: `take` is given each chunk
 * in turn and returns the part of it the range owns; `done` says that no later byte belongs to it.
 */
export class RangeCutter {
  private state: 'skip' | 'own' | 'finish' | 'done';
  /** Offset of the next byte `take` is given. */
  private at: number;
  private end: number | undefined;
  private lastOwned = NEWLINE;

  constructor(range: Pick<RangeJob, 'start' | 'end' | 'atLineStart'>) {
    this.at = readFrom(range);
    this.end = range.end;
    this.state = range.atLineStart ? 'own' : 'skip';
    if (this.state === 'own' && this.pastEnd()) this.state = 'done';
  }

  get done(): boolean {
    return this.state === 'done';
  }

  /** Offset of the next byte to be given. */
  get offset(): number {
    return this.at;
  }

  /** Moves the range's end nearer, to an offset not yet given (a range after it was handed out). */
  endAt(end: number): void {
    if (end <= this.at || (this.end !== undefined && end > this.end))
      throw new Error(`cannot end a range at ${end}`);
    this.end = end;
  }

  take(chunk: Uint8Array): Uint8Array | undefined {
    let bytes = chunk;
    if (this.state === 'skip') bytes = this.skipPartLine(bytes);
    if (this.state === 'own') return this.own(bytes);
    if (this.state === 'finish') return this.finish(bytes);
    return undefined;
  }

  private pastEnd(): boolean {
    return this.end !== undefined && this.at >= this.end;
  }

  /** Drops the end of the line the range starts inside (the range before reads it). */
  private skipPartLine(bytes: Uint8Array): Uint8Array {
    const newline = bytes.indexOf(NEWLINE);
    if (newline === -1) {
      this.at += bytes.length;
      return bytes.subarray(bytes.length);
    }
    this.at += newline + 1;
    this.state = this.pastEnd() ? 'done' : 'own';
    return bytes.subarray(newline + 1);
  }

  private own(bytes: Uint8Array): Uint8Array {
    const { end } = this;
    if (end === undefined || this.at + bytes.length < end) return this.owned(bytes);
    const toEnd = end - this.at;
    const beforeEnd = toEnd > 0 ? bytes[toEnd - 1] : this.lastOwned;
    if (beforeEnd === NEWLINE) {
      this.state = 'done';
      return this.owned(bytes.subarray(0, toEnd));
    }
    // A line runs on past `end`: it started before, so it is this range's to its newline.
    this.state = 'finish';
    return this.finish(bytes, toEnd);
  }

  private finish(bytes: Uint8Array, from = 0): Uint8Array {
    const newline = bytes.indexOf(NEWLINE, from);
    if (newline === -1) return this.owned(bytes);
    this.state = 'done';
    return this.owned(bytes.subarray(0, newline + 1));
  }
  private owned(bytes: Uint8Array): Uint8Array {
    this.at += bytes.length;
    if (bytes.length > 0) this.lastOwned = bytes[bytes.length - 1] as number;
    return bytes;
  }
}

/**
 * A range's own bytes out of the chunks read from readFrom(range) on. It stops as soon as it has
 * them all, without asking for another chunk (each is a read of the input).
 */
export function* ownBytes(range: RangeJob, chunks: Iterable<Uint8Array>): Generator<Uint8Array> {
  const cutter = new RangeCutter(range);
  for (const chunk of chunks) {
    const owned = cutter.take(chunk);
    if (owned && owned.length > 0) yield owned;
    if (cutter.done) return;
  }
}

/** ownBytes over chunks that come asynchronously (the input read on this thread). */
export async function* ownBytesOf(
  range: Pick<RangeJob, 'start' | 'end' | 'atLineStart'>,
  chunks: AsyncIterable<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  const cutter = new RangeCutter(range);
  for await (const chunk of chunks) {
    const owned = cutter.take(chunk);
    if (owned && owned.length > 0) yield owned;
    if (cutter.done) return;
  }
}

/** Reads one range with a collector of its own, as collectBlock reads a block (with its byte count). */
export function collectRange(
  range: RangeJob,
  chunks: Iterable<Uint8Array>,
  extractors?: readonly Extractor[],
): RangeFacts {
  return collectPart(ownBytes(range, chunks), range, extractors);
}
