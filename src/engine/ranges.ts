import { InputTooLargeError } from '../errors.ts';
import { collectPart, lineLimits, type PartLimits, type RangeFacts } from './block-read.ts';
import type { FactCollector } from './collector.ts';
import type { Extractor } from './extractors/types.ts';
import type { InputStats, ReadLimits } from './ingest/lines.ts';
import { mergeCuts } from './ingest/long-line.ts';
import { LineSkimmer } from './ingest/skim.ts';

/**
 * An input that other threads can read for themselves from any byte offset (a file on disk): they
 * read its ranges from it, so no byte of the rest passes through the thread that reads in order.
 */
export interface SeekableInput {
  /** Where the other threads find it (a file's path); the engine only passes it on. */
  locator: string;
  /** Its size in bytes when the split is decided; bytes that come later belong to the last range. */
  size: number;
  /** Its bytes from `from` on, in chunks (for a range this thread must read itself). */
  read(from: number): AsyncIterable<Uint8Array>;
}

/**
 * A range of a seekable input: the lines that start at a byte in [start, end), each read to its
 * newline even past `end`; without `end`, every line to the input's end. Ranges that meet share no
 * line and miss none, wherever their bounds fall.
 */
export interface RangeJob extends PartLimits {
  locator: string;
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
  private lastOwned = NEWLINE;

  constructor(private readonly range: Pick<RangeJob, 'start' | 'end' | 'atLineStart'>) {
    this.at = readFrom(range);
    this.state = range.atLineStart ? 'own' : 'skip';
    if (this.state === 'own' && this.pastEnd()) this.state = 'done';
  }

  get done(): boolean {
    return this.state === 'done';
  }

  take(chunk: Uint8Array): Uint8Array | undefined {
    let bytes = chunk;
    if (this.state === 'skip') bytes = this.skipPartLine(bytes);
    if (this.state === 'own') return this.own(bytes);
    if (this.state === 'finish') return this.finish(bytes);
    return undefined;
  }

  private pastEnd(): boolean {
    return this.range.end !== undefined && this.at >= this.range.end;
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
    const { end } = this.range;
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

/** A range's own bytes out of the chunks read from readFrom(range) on, stopping once it has them all. */
export function* ownBytes(range: RangeJob, chunks: Iterable<Uint8Array>): Generator<Uint8Array> {
  const cutter = new RangeCutter(range);
  for (const chunk of chunks) {
    if (cutter.done) return;
    const owned = cutter.take(chunk);
    if (owned && owned.length > 0) yield owned;
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

/** Reads a range elsewhere (a worker thread, from the input itself) and resolves to its facts. */
export type RangeOffload = (job: RangeJob) => Promise<RangeFacts>;

export interface RangeOptions {
  input: SeekableInput;
  offload: RangeOffload;
  /** Bytes per range (the last one takes what is left). */
  rangeBytes: number;
  /** Ranges handed out and not yet taken in. */
  inFlight: number;
}

/** A range handed out, and its facts to come (none once the ranges are read here). */
interface HandedRange {
  job: RangeJob;
  facts?: Promise<RangeFacts>;
}

/**
 * Reads the rest of a seekable input, from a line's start on, as LineSkimmer would with the same
 * result: its ranges go to other threads, which read them from the input themselves, and their facts
 * are taken in, in input order, as they come back. A range whose facts are not exact, or did not
 * come, is read here from the input; once one did not come, so is every range after it.
 */
export class RangeReader {
  private readonly handed: HandedRange[] = [];
  private alone = false;

  constructor(
    private readonly source: string,
    private readonly collector: FactCollector,
    private readonly stats: InputStats,
    private readonly limits: ReadLimits,
    private readonly options: RangeOptions,
  ) {}

  async read(from: number): Promise<void> {
    const { input, rangeBytes } = this.options;
    for (let start = from; ; start += rangeBytes) {
      const end = start + rangeBytes < input.size ? start + rangeBytes : undefined;
      await this.hand({ start, ...(end === undefined ? {} : { end }), atLineStart: start === from });
      if (end === undefined) break;
    }
    while (this.handed.length > 0) await this.takeOldest();
    const { maxBytes } = this.limits;
    // The input grew while it was read: its last range read on to its new end.
    if (maxBytes !== undefined && this.stats.bytes > maxBytes)
      throw new InputTooLargeError(this.source, maxBytes);
  }

  private async hand(range: Pick<RangeJob, 'start' | 'end' | 'atLineStart'>): Promise<void> {
    if (this.handed.length >= this.options.inFlight) await this.takeOldest();
    const job: RangeJob = {
      locator: this.options.input.locator,
      ...range,
      keptInFull: this.collector.book.keptInFull(),
      ...lineLimits(this.limits.maxLineChars),
    };
    if (this.alone) {
      this.handed.push({ job });
      return;
    }
    const facts = this.options.offload(job);
    // Awaited in order later; one failing while an earlier one is awaited is not unhandled.
    facts.catch(() => undefined);
    this.handed.push({ job, facts });
  }

  private async takeOldest(): Promise<void> {
    const oldest = this.handed.shift();
    if (!oldest) return;
    const facts = await oldest.facts?.catch(() => undefined);
    if (!facts) this.alone = true;
    if (!facts?.exact) return this.readHere(oldest.job);
    this.collector.absorb(facts.book, facts.lines);
    this.count(facts);
  }

  /** A range read on this thread, from the input, after everything before it. */
  private async readHere(job: RangeJob): Promise<void> {
    const counted: InputStats = { bytes: 0, lines: 0 };
    const skimmer = new LineSkimmer(this.source, this.collector, counted, lineLimits(job.maxLineChars), true);
    const cutter = new RangeCutter(job);
    for await (const chunk of this.options.input.read(readFrom(job))) {
      const owned = cutter.take(chunk);
      if (owned && owned.length > 0) skimmer.chunk(owned);
      if (cutter.done) break;
    }
    skimmer.end();
    this.count(counted);
  }

  private count(part: InputStats): void {
    mergeCuts(this.stats, part.cut, this.stats.lines);
    this.stats.lines += part.lines;
    this.stats.bytes += part.bytes;
  }
}
