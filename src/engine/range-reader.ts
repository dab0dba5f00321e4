import { InputTooLargeError } from '../errors.ts';
import { lineLimits, type RangeFacts } from './block-read.ts';
import type { FactCollector } from './collector.ts';
import type { InputStats, ReadLimits } from './ingest/lines.ts';
import { mergeCuts } from './ingest/long-line.ts';
import { LineSkimmer } from './ingest/skim.ts';
import { ownBytesOf, RangeCutter, type RangeJob, readFrom, type SeekableInput } from './ranges.ts';

/** Reads a range elsewhere (a worker thread, from the input itself) and resolves to its facts. */
export type RangeOffload = (job: RangeJob) => Promise<RangeFacts>;

export interface RangeOptions {
  input: SeekableInput;
  offload: RangeOffload;
  /** Bytes per range at most; ranges near where this thread has read to are smaller. */
  rangeBytes: number;
  /** Ranges handed out and not yet read. */
  inFlight: number;
}

/**
 * The largest range handed out: large enough that a range's start (a collector of its own, the kinds
 * it must fill again, the file opened) is noise.
 */
export const RANGE_BYTES = 32 * 1024 * 1024;

/**
 * The smallest range handed out, as a part of the largest (1 MiB of 32). A range is handed out only
 * while this thread is at least its length away from it, so ranges shrink as this thread draws near:
 * the last ones are short, and neither end waits long for the other.
 */
const SMALLEST_RANGE = 1 / 32;

/** A range handed out, and its facts to come. */
interface HandedRange {
  job: RangeJob;
  facts: Promise<RangeFacts>;
}

/**
 * Reads a seekable input from both ends, with the result of reading it in order here. This thread
 * reads on in order from where it is, as it did; meanwhile other threads read ranges of it from its
 * end backwards, each from the input itself, handed out one by one while this thread is still far
 * enough from them. Once this thread reaches the ranges handed out, their facts are taken in, in
 * input order. This thread never waits for the others to start and loses nothing to them: on two
 * cores the other one only adds. A range whose facts are not exact, or did not come, is read here
 * from the input; once one did not come, no more are handed out.
 */
export class TwoEndedReader {
  /** Handed out from the end backwards: the last one is the nearest. */
  private readonly handed: HandedRange[] = [];
  private readonly own: RangeCutter;
  /** Where the ranges handed out start; the input's size while none is. */
  private boundary: number;
  private inFlight = 0;
  private alone = false;

  /** `skimmer`: this thread's reader of the input, which has read it in order up to `from`. */
  constructor(
    private readonly source: string,
    private readonly collector: FactCollector,
    private readonly stats: InputStats,
    private readonly limits: ReadLimits,
    private readonly skimmer: LineSkimmer,
    from: number,
    private readonly options: RangeOptions,
  ) {
    this.own = new RangeCutter({ start: from, atLineStart: true });
    this.boundary = options.input.size;
  }

  /** Reads this thread's next chunk of the input, in order; false once it has reached the ranges handed out. */
  take(chunk: Uint8Array): boolean {
    this.handOut();
    const owned = this.own.take(chunk);
    if (owned && owned.length > 0) this.skimmer.chunk(owned);
    return !this.own.done;
  }

  /** Once this thread has read its part: the ranges' facts, in input order. */
  async finish(): Promise<void> {
    this.skimmer.end();
    while (this.handed.length > 0) await this.takeIn(this.handed.pop() as HandedRange);
    const { maxBytes } = this.limits;
    // The input grew while it was read: its last range read on to its new end.
    if (maxBytes !== undefined && this.stats.bytes > maxBytes)
      throw new InputTooLargeError(this.source, maxBytes);
  }

  private handOut(): void {
    while (!this.alone && this.inFlight < this.options.inFlight) {
      const bytes = Math.min(this.options.rangeBytes, Math.floor((this.boundary - this.own.offset) / 2));
      if (bytes < this.options.rangeBytes * SMALLEST_RANGE || bytes < 1) return;
      const start = this.boundary - bytes;
      const end = this.handed.length === 0 ? undefined : this.boundary;
      this.hand({ start, ...(end === undefined ? {} : { end }), atLineStart: false });
      this.boundary = start;
      this.own.endAt(start);
    }
  }

  private hand(range: Pick<RangeJob, 'start' | 'end' | 'atLineStart'>): void {
    const { locator, identity } = this.options.input;
    const job: RangeJob = {
      locator,
      ...(identity === undefined ? {} : { identity }),
      ...range,
      keptInFull: this.collector.book.keptInFull(),
      ...lineLimits(this.limits.maxLineChars),
    };
    this.inFlight++;
    const facts = this.options.offload(job);
    facts.then(
      () => this.inFlight--,
      () => {
        this.inFlight--;
        // A thread that failed one range may fail the next: this thread reads on in order instead.
        this.alone = true;
      },
    );
    this.handed.push({ job, facts });
  }

  private async takeIn({ job, facts }: HandedRange): Promise<void> {
    const read = await facts.catch(() => undefined);
    if (!read?.exact) return this.readHere(job);
    this.collector.absorb(read.book, read.lines);
    this.count(read);
  }

  /** A range read on this thread, from the input, after everything before it. */
  private async readHere(job: RangeJob): Promise<void> {
    const counted: InputStats = { bytes: 0, lines: 0 };
    const skimmer = new LineSkimmer(this.source, this.collector, counted, lineLimits(job.maxLineChars), true);
    for await (const owned of ownBytesOf(job, this.options.input.read(readFrom(job)))) skimmer.chunk(owned);
    skimmer.end();
    this.count(counted);
  }

  private count(part: InputStats): void {
    mergeCuts(this.stats, part.cut, this.stats.lines);
    this.stats.lines += part.lines;
    this.stats.bytes += part.bytes;
  }
}
