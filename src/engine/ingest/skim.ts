import { InputTooLargeError } from '../../errors.ts';
import { type InputStats, lineEnding, MAX_LINE_CHARS, type ReadLimits } from './lines.ts';
import { LiteralScanner } from './literal-scan.ts';
import { carryLimit, keepOfLongLine } from './long-line.ts';

export { carryLimit } from './long-line.ts';

/** Where skimmed lines go: the engine's fact collector, seen from the reader. */
export interface LineSink {
  /** True while every line must be read: the input's format is not known yet, or a parser reads it. */
  everyLine(): boolean;
  push(lines: readonly string[]): void;
  /**
   * Takes one line as push does, with the ids of the literals found in it (indexes into `literals`,
   * an array liveLiterals gave): what push would find in it again.
   */
  pushFound?(line: string, literals: readonly string[], found: readonly number[]): void;
  /** Moves past lines that were not read: none of them holds a live literal. */
  skip(count: number): void;
  /**
   * Literals (ASCII, matched case-insensitively) one of which a line must hold to be worth reading;
   * the same array until the set changes. Undefined: read every line.
   */
  liveLiterals(): readonly string[] | undefined;
  /** Finds every literal the sink reads lines for: what a line longer than the limit is searched for. */
  cutScanner?(): LiteralScanner | undefined;
}

const NEWLINE = 0x0a;

/** Lines handed over at once while the sink reads every line: more than it sniffs (DETECT_LINES). */
const SNIFF_LINES = 64;

/** Where the first `count` lines of the bytes end (past their newlines), or their length. */
function afterLines(bytes: Buffer, count: number): number {
  let at = 0;
  for (let line = 0; line < count; line++) {
    const newline = bytes.indexOf(NEWLINE, at);
    if (newline === -1) return bytes.length;
    at = newline + 1;
  }
  return at;
}

/** Newlines in bytes[from, to). */
function newlines(bytes: Buffer, from: number, to: number): number {
  let count = 0;
  for (let at = bytes.indexOf(NEWLINE, from); at !== -1 && at < to; at = bytes.indexOf(NEWLINE, at + 1))
    count++;
  return count;
}

/**
 * Reads text bytes into a sink as splitLines would, but once the sink may skip lines it decodes and
 * hands over only the lines holding a live literal, and counts the others. Same lines, same numbers,
 * same text as splitLines for every line the sink reads.
 */
export class LineSkimmer {
  private readonly maxLine: number;
  /** Bytes kept of an unfinished line (carryLimit). */
  private readonly maxCarry: number;
  private readonly cleanEnd: (line: string, lineNo: number) => string;
  private readonly longScanner: LiteralScanner | undefined;
  private readonly startDecoder = new TextDecoder('utf-8');
  // Only the input's very first bytes may lose a byte-order mark, as in a streaming decode.
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  private atStart: boolean;
  private carry: Buffer = Buffer.alloc(0);
  private scanner?: LiteralScanner;
  private literals?: readonly string[];

  /** `midInput`: the bytes start at a line of an input, not at its start (no byte-order mark to drop). */
  constructor(
    private readonly source: string,
    private readonly sink: LineSink,
    private readonly stats: InputStats,
    private readonly limits: ReadLimits = {},
    midInput = false,
  ) {
    this.atStart = !midInput;
    this.maxLine = limits.maxLineChars ?? MAX_LINE_CHARS;
    this.maxCarry = carryLimit(this.maxLine);
    this.longScanner = sink.cutScanner?.();
    this.cleanEnd = lineEnding(this.maxLine, stats, this.longScanner);
  }

  async read(bytes: AsyncIterable<Uint8Array>): Promise<void> {
    for await (const chunk of bytes) this.chunk(chunk);
    this.end();
  }

  chunk(input: Uint8Array): void {
    // A Buffer for its native indexOf (five times the typed array's); the scan gets a plain view.
    const chunk = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    this.stats.bytes += chunk.length;
    if (this.limits.maxBytes !== undefined && this.stats.bytes > this.limits.maxBytes) {
      throw new InputTooLargeError(this.source, this.limits.maxBytes);
    }
    const firstNewline = chunk.indexOf(NEWLINE);
    if (firstNewline === -1) {
      this.carry = this.capped(concat(this.carry, chunk));
      return;
    }
    // The line the last chunk left unfinished is joined on its own, not the whole chunk to it.
    let from = 0;
    if (this.carry.length > 0) {
      const head = concat(this.carry, chunk.subarray(0, firstNewline + 1));
      this.carry = Buffer.alloc(0);
      this.region(head);
      from = firstNewline + 1;
    }
    const end = chunk.lastIndexOf(NEWLINE) + 1;
    if (end > from) this.region(chunk.subarray(from, end));
    this.carry = this.capped(chunk.subarray(end));
  }

  /** Whole lines, the last one ending with its newline. */
  private region(bytes: Buffer): void {
    if (!this.sink.everyLine()) {
      this.skim(bytes);
      return;
    }
    // Every line is read while the sink sniffs the input's format (its first 50 lines), and a region
    // is a megabyte of lines: hand over the first few, so that once the format is known to be none a
    // parser reads, the rest of the region is skimmed.
    const head = afterLines(bytes, SNIFF_LINES);
    this.readAll(bytes.subarray(0, head));
    if (head === bytes.length) return;
    if (this.sink.everyLine()) this.readAll(bytes.subarray(head));
    else this.skim(bytes.subarray(head));
  }

  /**
   * The bytes of the line still unfinished, handed to whoever reads on from here (the skimmer
   * forgets them). Every line before it has been read; `end` is then not to be called.
   */
  detachCarry(): Buffer {
    const carry = this.carry;
    this.carry = Buffer.alloc(0);
    return carry;
  }

  end(): void {
    if (this.carry.length === 0) return;
    const line = this.decode(this.carry);
    this.carry = Buffer.alloc(0);
    if (line.length === 0) return;
    this.stats.lines++;
    this.sink.push([this.cleanEnd(line, this.stats.lines)]);
  }

  /** The unfinished line, without the bytes the engine cannot read of it (keepOfLongLine). */
  private capped(bytes: Buffer): Buffer {
    return keepOfLongLine(bytes, this.maxCarry, this.longScanner);
  }

  private decode(bytes: Uint8Array): string {
    if (!this.atStart) return this.decoder.decode(bytes);
    this.atStart = false;
    return this.startDecoder.decode(bytes);
  }

  /** Every line of the bytes, which end with a newline. */
  private readAll(bytes: Buffer): void {
    const lines = this.decode(bytes).split('\n');
    lines.pop();
    const first = this.stats.lines + 1;
    this.stats.lines += lines.length;
    this.sink.push(lines.map((line, i) => this.cleanEnd(line, first + i)));
  }

  /** Only the lines of the bytes (which end with a newline) that hold a live literal; the rest are counted. */
  private skim(bytes: Buffer): void {
    const end = bytes.length;
    // One element type for the scan loop: Buffers and plain arrays in turn would make its byte
    // loads polymorphic.
    const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
    let at = 0;
    while (at < end) {
      const scanner = this.currentScanner();
      if (!scanner) {
        this.readAll(bytes.subarray(at));
        return;
      }
      const hit = scanner.find(view, at, end);
      if (hit === -1) {
        this.pass(newlines(bytes, at, end));
        return;
      }
      const start = Math.max(at, bytes.lastIndexOf(NEWLINE, hit) + 1);
      const stop = bytes.indexOf(NEWLINE, hit);
      this.pass(newlines(bytes, at, start));
      this.stats.lines++;
      this.hand(scanner, bytes, view, start, stop);
      at = stop + 1;
      if (this.sink.everyLine()) {
        this.readAll(bytes.subarray(at));
        return;
      }
    }
  }

  /**
   * Hands over the line bytes[start, stop), which the scanner just hit. When it is read as it is (not
   * cut, no CR to strip), its live literals are found in its bytes, already in the scan kernel.
   */
  private hand(scanner: LiteralScanner, bytes: Buffer, view: Uint8Array, start: number, stop: number): void {
    const line = bytes.subarray(start, stop);
    const long = line.length > this.maxCarry;
    const text = this.decode(long ? this.capped(line) : line);
    const cleaned = this.cleanEnd(text, this.stats.lines);
    const literals = this.literals;
    if (
      this.sink.pushFound === undefined ||
      long ||
      cleaned !== text ||
      literals?.length !== scanner.literals.length
    ) {
      this.sink.push([cleaned]);
      return;
    }
    const found: number[] = [];
    scanner.eachIn(view, start, stop, (id) => found.push(id));
    this.sink.pushFound(cleaned, literals, found);
  }

  private pass(count: number): void {
    if (count === 0) return;
    this.atStart = false;
    this.stats.lines += count;
    this.sink.skip(count);
  }

  private currentScanner(): LiteralScanner | undefined {
    const literals = this.sink.liveLiterals();
    if (literals === undefined) return undefined;
    if (literals !== this.literals) {
      this.literals = literals;
      this.scanner = new LiteralScanner(literals);
    }
    return this.scanner;
  }
}

function concat(a: Buffer, b: Buffer): Buffer {
  return a.length === 0 ? b : Buffer.concat([a, b]);
}
