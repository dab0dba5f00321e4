import { InputTooLargeError } from '../errors.ts';
import { type BlockFacts, collectPart, lineLimits, type PartLimits, readLinesInto } from './block-read.ts';
import type { FactCollector } from './collector.ts';
import type { Extractor } from './extractors/types.ts';
import { type InputStats, MAX_LINE_CHARS, type ReadLimits } from './ingest/lines.ts';
import { keepOfLongLine, longLineBound, mergeCuts } from './ingest/long-line.ts';
import { carryLimit, LineSkimmer } from './ingest/skim.ts';
import { RANGE_BYTES, type RangeOffload, type RangeOptions, TwoEndedReader } from './range-reader.ts';
import type { SeekableInput } from './ranges.ts';

export type { BlockFacts } from './block-read.ts';

/** Whole lines from the middle of an input, for another thread to read. */
export interface BlockJob extends PartLimits {
  /**
   * The block's bytes, in order, ending at a newline (the input's last block may not). Each view's
   * memory is a shared slab (SlabPool): another thread reads it without a copy, and the bytes stay
   * here until its answer came, to be read here if none does.
   */
  chunks: Uint8Array[];
}

/**
 * Reads a block somewhere else (a worker thread) and resolves to its facts. When it rejects (the
 * thread ran out of heap, threw, or ended), the block is read here from the bytes kept, and so is
 * the rest of the input: the result is the same; saying what happened is the offload's part.
 */
export type BlockOffload = (job: BlockJob) => Promise<BlockFacts>;

export interface BlockOptions {
  offload: BlockOffload;
  /** Bytes per block (the last one may be shorter). */
  blockBytes?: number;
  /** Blocks handed out and not yet taken in. */
  inFlight?: number;
  /**
   * Bytes read here, in order, before any block is handed out (default: one block): while the
   * other threads start, this one does useful work, and an input not much larger is never split.
   */
  readHereFirst?: number;
  /**
   * Asked before each chunk once `readHereFirst` bytes are read: false keeps reading in order here
   * (the other threads are not started, or the input has not yet shown itself long enough to be
   * worth them). Every chunk read in order is read as it comes, as LineSkimmer reads it.
   */
  ready?: (progress: SplitProgress) => boolean;
  /**
   * The input, when other threads can read it from any offset (a file): once they are ready, they
   * read ranges of it from its end backwards while this thread reads on (range-reader.ts), and no
   * block is handed out. Needs `offloadRange`.
   */
  seekable?: SeekableInput;
  offloadRange?: RangeOffload;
  /** Bytes per range at most (the first one handed out, the input's last, takes what it grew by). */
  rangeBytes?: number;
}

/** How far an input has been read in order when the threads are asked whether they are ready. */
export interface SplitProgress {
  bytesRead: number;
  /** Bytes left, when the rest would be read by range (a seekable input's size is known). */
  restBytes?: number;
}

/**
 * Large enough that a block's start-up is noise; small enough that the blocks in flight and the
 * threads' memory of them stay a few MiB (8 MiB blocks: 243 MB peak RSS on a 256 MiB log, 2 MiB: 215).
 */
export const BLOCK_BYTES = 2 * 1024 * 1024;
const IN_FLIGHT = 4;
const NEWLINE = 0x0a;

/** Reads one block with a collector of its own: no parser (decided at the input's start), no hint. */
export function collectBlock(job: BlockJob, extractors?: readonly Extractor[]): BlockFacts {
  const { bytes: _, ...facts } = collectPart(job.chunks, job, extractors);
  return facts;
}

/** True when a view spans its whole buffer: the buffer can move to another thread with it. */
export function ownsItsBuffer(view: Uint8Array): boolean {
  return view.byteOffset === 0 && view.byteLength === view.buffer.byteLength;
}

/** Bytes of a slab: a block's bytes are copied into slabs, a 2 MiB block into four or five. */
export const SLAB_BYTES = 512 * 1024;

/**
 * Slabs that blocks' bytes are copied into, taken for a block and given back once it was read. A new
 * buffer for every chunk of every block cost a page fault per 4 KiB and left the threads and this
 * one collecting megabytes of them. They are shared memory: moved to a thread, a block's bytes were
 * lost with a thread that died reading them (a stream cannot be read again); shared, they stay here
 * without a copy (peak RSS on a 256 MiB log, threads forced: moved 142-145 MiB, shared 145-147, a
 * copy kept until the answer 152-157).
 */
export class SlabPool {
  private readonly free: SharedArrayBuffer[] = [];

  take(): Uint8Array {
    return new Uint8Array(this.free.pop() ?? new SharedArrayBuffer(SLAB_BYTES));
  }

  /** Gives back the slabs of views no one reads any more. */
  give(views: readonly Uint8Array[]): void {
    for (const buffer of new Set(views.map((view) => view.buffer)))
      if (buffer instanceof SharedArrayBuffer && buffer.byteLength === SLAB_BYTES) this.free.push(buffer);
  }
}

/** A block handed out: its bytes, kept until its facts are taken in, and the facts to come. */
interface Handed {
  chunks: Uint8Array[];
  facts: Promise<BlockFacts>;
}

/**
 * Reads text bytes into a collector as LineSkimmer.read does, with the same result, but splits what
 * follows the input's start into blocks that `offload` reads elsewhere, and takes their facts in,
 * in input order, as they come back. The start is read here: `readHereFirst` bytes, and until the
 * collector may skip lines (no parser reads the input); an input a parser reads is read here in
 * full, and so is one shorter than a block after its start. The bytes of a block are copied once,
 * into shared slabs (SlabPool). Once a block could not be read elsewhere, it and every block after it
 * are read here. A seekable input (a file) is not split into blocks: once the threads are ready, it
 * is read from both ends (TwoEndedReader).
 */
export class BlockReader {
  private readonly skimmer: LineSkimmer;
  private readonly blockBytes: number;
  private readonly inFlight: number;
  private readonly readHereFirst: number;
  private readonly maxCarry: number;
  /** Line limits only: the byte limit is checked here, as the bytes arrive. */
  private readonly limits: ReadLimits;
  private readonly maxBytes: number | undefined;
  private readonly handed: Handed[] = [];
  private handedAny = false;
  /** True once the offload failed a block: the rest of the input is read here. */
  private alone = false;
  private readonly slabs = new SlabPool();
  /** Bytes not handed out yet: the filled part of each slab, in order (the last one is filled on). */
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /** The slab filled now (the last of `pending`), and how much of it. */
  private slab?: Uint8Array;
  private used = 0;
  /** Bytes of `pending` after its last newline: the line still unfinished. */
  private unfinished = 0;
  private splitting = false;
  /** Once the threads read a seekable input's ranges: this thread's reading of the rest. */
  private twoEnded?: TwoEndedReader;

  constructor(
    private readonly source: string,
    private readonly collector: FactCollector,
    private readonly stats: InputStats,
    limits: ReadLimits,
    private readonly options: BlockOptions,
  ) {
    this.limits = lineLimits(limits.maxLineChars);
    this.maxBytes = limits.maxBytes;
    this.skimmer = new LineSkimmer(source, collector, stats, limits);
    this.blockBytes = options.blockBytes ?? BLOCK_BYTES;
    this.inFlight = options.inFlight ?? IN_FLIGHT;
    this.readHereFirst = options.readHereFirst ?? this.blockBytes;
    this.maxCarry = carryLimit(limits.maxLineChars ?? MAX_LINE_CHARS);
  }

  async read(bytes: AsyncIterable<Uint8Array>): Promise<void> {
    for await (const chunk of bytes) {
      if (this.twoEnded) {
        // Up to the ranges the other threads read: the rest of the input is not read here (it is closed).
        if (!this.twoEnded.take(chunk)) break;
      } else if (!this.splitting) this.start(chunk);
      else await this.add(chunk);
    }
    if (this.twoEnded) return this.twoEnded.finish();
    if (!this.splitting) return this.skimmer.end();
    const rest = this.takePending();
    // Threads already started read the rest too; otherwise it is read here.
    if (this.handedAny && rest.length > 0) await this.hand(rest);
    while (this.handed.length > 0) await this.takeOldest();
    if (!this.handedAny) this.readHere(rest);
  }

  /** The input's start, read in order until the collector may skip lines. */
  private start(chunk: Uint8Array): void {
    this.skimmer.chunk(chunk);
    if (this.collector.everyLine() || this.stats.bytes < this.readHereFirst) return;
    if (this.options.ready && !this.options.ready(this.progress())) return;
    const ranges = this.ranges();
    if (ranges) {
      this.twoEnded = this.readFromBothEnds(ranges);
      return;
    }
    this.splitting = true;
    const carry = this.skimmer.detachCarry();
    this.append(carry);
    this.unfinished = carry.length;
  }

  private progress(): SplitProgress {
    const bytesRead = this.stats.bytes;
    const ranges = this.ranges();
    return ranges ? { bytesRead, restBytes: ranges.input.size - bytesRead } : { bytesRead };
  }

  /**
   * The input and who reads its ranges, when the rest of it can be read by range: it is seekable, and
   * not over the byte limit.
   */
  private ranges(): Pick<RangeOptions, 'input' | 'offload'> | undefined {
    const { seekable, offloadRange } = this.options;
    if (!seekable || !offloadRange) return undefined;
    if (this.maxBytes !== undefined && seekable.size > this.maxBytes) return undefined;
    return { input: seekable, offload: offloadRange };
  }

  private readFromBothEnds(ranges: Pick<RangeOptions, 'input' | 'offload'>): TwoEndedReader {
    const limits = { ...this.limits, ...(this.maxBytes === undefined ? {} : { maxBytes: this.maxBytes }) };
    const { rangeBytes = RANGE_BYTES } = this.options;
    const options = { ...ranges, rangeBytes, inFlight: this.inFlight };
    const { source, collector, stats, skimmer } = this;
    return new TwoEndedReader(source, collector, stats, limits, skimmer, stats.bytes, options);
  }

  private async add(chunk: Uint8Array): Promise<void> {
    this.stats.bytes += chunk.length;
    if (this.maxBytes !== undefined && this.stats.bytes > this.maxBytes)
      throw new InputTooLargeError(this.source, this.maxBytes);
    const lastNewline = chunk.lastIndexOf(NEWLINE);
    if (lastNewline === -1) {
      this.append(chunk);
      this.unfinished += chunk.length;
      if (this.unfinished > longLineBound(this.maxCarry)) this.capUnfinished();
      return;
    }
    const end = lastNewline + 1;
    this.unfinished = chunk.length - end;
    if (this.pendingBytes + end < this.blockBytes) return this.append(chunk);
    // The block ends at that newline; the unfinished line after it starts the next, in slabs of its own.
    this.append(chunk.subarray(0, end));
    const block = this.takePending();
    this.append(chunk.subarray(end));
    await this.hand(block);
  }

  /** Copies bytes to the end of `pending`, into the slab filled now and new ones as each fills. */
  private append(bytes: Uint8Array): void {
    for (let at = 0; at < bytes.length; ) {
      if (!this.slab || this.used === this.slab.length) {
        this.slab = this.slabs.take();
        this.used = 0;
        this.pending.push(this.slab.subarray(0, 0));
      }
      const part = bytes.subarray(at, at + this.slab.length - this.used);
      this.slab.set(part, this.used);
      this.used += part.length;
      at += part.length;
      this.pending[this.pending.length - 1] = this.slab.subarray(0, this.used);
    }
    this.pendingBytes += bytes.length;
  }

  /** The bytes not handed out yet, taken: what comes next goes into new slabs. */
  private takePending(): Uint8Array[] {
    const taken = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    this.slab = undefined;
    return taken;
  }

  private async hand(chunks: Uint8Array[]): Promise<void> {
    if (this.handed.length >= this.inFlight) await this.takeOldest();
    if (this.alone) {
      while (this.handed.length > 0) await this.takeOldest();
      return this.readHere(chunks);
    }
    const job: BlockJob = { chunks, keptInFull: this.collector.book.keptInFull(), ...this.limits };
    this.handedAny = true;
    const facts = this.options.offload(job);
    // Awaited in order later; a later block failing while an earlier one is awaited is not unhandled
    // (and the read may end first, on an input error, leaving it unread).
    facts.catch(() => undefined);
    this.handed.push({ chunks, facts });
  }

  /**
   * An unfinished line longer than the engine reads: as LineSkimmer does, only the bytes it can
   * read are kept (keepOfLongLine), until its newline comes.
   */
  private capUnfinished(): void {
    const joined = Buffer.concat(this.pending);
    this.slabs.give(this.takePending());
    const lineStart = joined.length - this.unfinished;
    const line = keepOfLongLine(joined.subarray(lineStart), this.maxCarry, this.collector.cutScanner());
    this.append(joined.subarray(0, lineStart));
    this.append(line);
    this.unfinished = line.length;
  }

  /**
   * Takes in the oldest block's facts, or reads it here when they would not be exact or did not come
   * (then nothing more is handed out: a thread that failed one block may fail the next).
   */
  private async takeOldest(): Promise<void> {
    const oldest = this.handed.shift();
    if (!oldest) return;
    const facts = await oldest.facts.catch(() => undefined);
    if (!facts) this.alone = true;
    if (!facts?.exact) return this.readHere(oldest.chunks);
    this.collector.absorb(facts.book, facts.lines);
    mergeCuts(this.stats, facts.cut, this.stats.lines);
    this.stats.lines += facts.lines;
    this.slabs.give(oldest.chunks);
  }

  /** Lines read in order on this thread, after everything before them; their slabs are then free. */
  private readHere(chunks: readonly Uint8Array[]): void {
    const counted = readLinesInto(this.source, this.collector, this.limits, chunks);
    mergeCuts(this.stats, counted.cut, this.stats.lines);
    this.stats.lines += counted.lines;
    this.slabs.give(chunks);
  }
}
