import { InputTooLargeError } from '../errors.ts';
import { FactCollector } from './collector.ts';
import type { Extractor } from './extractors/types.ts';
import type { BookContents } from './facts.ts';
import { type InputStats, MAX_LINE_CHARS, type ReadLimits } from './ingest/lines.ts';
import { carryLimit, LineSkimmer } from './ingest/skim.ts';

/** Whole lines from the middle of an input, for another thread to read. */
export interface BlockJob {
  bytes: Uint8Array;
  maxLineChars?: number;
}

/** What a block's lines gave, as plain data. */
export interface BlockFacts {
  lines: number;
  book: BookContents;
  /**
   * False when taking the book in could differ from reading the lines in order (an extractor failed
   * on a line, or the block saw more config keys than a book keeps): the block is then read again.
   */
  exact: boolean;
}

/** Reads a block somewhere else (a worker thread) and resolves to its facts. */
export type BlockOffload = (job: BlockJob) => Promise<BlockFacts>;

export interface BlockOptions {
  offload: BlockOffload;
  /** Bytes per block (the last one may be shorter, and is read in order, here). */
  blockBytes?: number;
  /** Blocks handed out and not yet taken in. */
  inFlight?: number;
}

/** Large enough that a block's start-up is noise, small enough that two cores stay busy on 64 MiB. */
export const BLOCK_BYTES = 8 * 1024 * 1024;
const IN_FLIGHT = 4;
const NEWLINE = 0x0a;

/** Reads one block with a collector of its own: no parser (decided at the input's start), no hint. */
export function collectBlock(job: BlockJob, extractors?: readonly Extractor[]): BlockFacts {
  const collector = new FactCollector(extractors, undefined, { parse: false });
  const stats: InputStats = { bytes: 0, lines: 0 };
  const limits = job.maxLineChars === undefined ? {} : { maxLineChars: job.maxLineChars };
  const skimmer = new LineSkimmer('block', collector, stats, limits, true);
  skimmer.chunk(job.bytes);
  skimmer.end();
  collector.finish();
  const book = collector.book.contents();
  return { lines: stats.lines, book, exact: collector.failures().length === 0 && !book.configsCapped };
}

interface Handed {
  bytes: Buffer;
  facts: Promise<BlockFacts>;
}

/**
 * Reads text bytes into a collector as LineSkimmer.read does, with the same result, but splits what
 * follows the input's start into blocks that `offload` reads elsewhere, and takes their facts in,
 * in input order, as they come back. The start is read here until the collector may skip lines (no
 * parser reads the input); an input a parser reads is read here in full. Blocks are only handed out
 * whole: an input shorter than one block after its start never leaves this thread.
 */
export class BlockReader {
  private readonly skimmer: LineSkimmer;
  private readonly blockBytes: number;
  private readonly inFlight: number;
  private readonly maxCarry: number;
  /** Line limits only: the byte limit is checked here, as the bytes arrive. */
  private readonly limits: ReadLimits;
  private readonly maxBytes: number | undefined;
  private readonly handed: Handed[] = [];
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private splitting = false;

  constructor(
    private readonly source: string,
    private readonly collector: FactCollector,
    private readonly stats: InputStats,
    limits: ReadLimits,
    private readonly options: BlockOptions,
  ) {
    this.limits = limits.maxLineChars === undefined ? {} : { maxLineChars: limits.maxLineChars };
    this.maxBytes = limits.maxBytes;
    this.skimmer = new LineSkimmer(source, collector, stats, limits);
    this.blockBytes = options.blockBytes ?? BLOCK_BYTES;
    this.inFlight = options.inFlight ?? IN_FLIGHT;
    this.maxCarry = carryLimit(limits.maxLineChars ?? MAX_LINE_CHARS);
  }

  async read(bytes: AsyncIterable<Uint8Array>): Promise<void> {
    for await (const chunk of bytes) {
      if (!this.splitting) this.start(chunk);
      else await this.add(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    }
    if (!this.splitting) return this.skimmer.end();
    while (this.handed.length > 0) await this.takeOldest();
    this.readHere(Buffer.concat(this.pending));
  }

  /** The input's start, read in order until the collector may skip lines. */
  private start(chunk: Uint8Array): void {
    this.skimmer.chunk(chunk);
    if (this.collector.everyLine()) return;
    this.splitting = true;
    this.pending = [this.skimmer.detachCarry()];
    this.pendingBytes = this.pending[0]?.length ?? 0;
  }

  private async add(chunk: Buffer): Promise<void> {
    this.stats.bytes += chunk.length;
    if (this.maxBytes !== undefined && this.stats.bytes > this.maxBytes)
      throw new InputTooLargeError(this.source, this.maxBytes);
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (chunk.indexOf(NEWLINE) === -1) return this.capUnfinished();
    if (this.pendingBytes < this.blockBytes) return;
    const joined = Buffer.concat(this.pending);
    const end = joined.lastIndexOf(NEWLINE) + 1;
    // A copy owning its memory, so it can move to another thread without copying again.
    const block = joined.slice(0, end);
    this.pending = [joined.subarray(end)];
    this.pendingBytes = joined.length - end;
    if (this.handed.length >= this.inFlight) await this.takeOldest();
    const job: BlockJob = { bytes: new Uint8Array(block) };
    if (this.limits.maxLineChars !== undefined) job.maxLineChars = this.limits.maxLineChars;
    this.handed.push({ bytes: block, facts: this.options.offload(job) });
  }

  /**
   * While no newline has come since the last one, the pending bytes after it are one unfinished
   * line: as LineSkimmer does, only the bytes its first characters can need are kept.
   */
  private capUnfinished(): void {
    const joined = Buffer.concat(this.pending);
    const lineStart = joined.lastIndexOf(NEWLINE) + 1;
    if (joined.length - lineStart <= this.maxCarry) return;
    const kept = joined.subarray(0, lineStart + this.maxCarry);
    this.pending = [kept];
    this.pendingBytes = kept.length;
  }

  /** Takes in the oldest block's facts, or reads it here when they would not be exact. */
  private async takeOldest(): Promise<void> {
    const oldest = this.handed.shift();
    if (!oldest) return;
    const facts = await oldest.facts;
    if (!facts.exact) return this.readHere(oldest.bytes);
    this.collector.absorb(facts.book, facts.lines);
    this.stats.lines += facts.lines;
  }

  /** Lines read in order on this thread, after everything before them. */
  private readHere(bytes: Buffer): void {
    const counted: InputStats = { bytes: 0, lines: 0 };
    const skimmer = new LineSkimmer(this.source, this.collector, counted, this.limits, true);
    skimmer.chunk(bytes);
    skimmer.end();
    this.stats.lines += counted.lines;
  }
}
