import type { Fact } from '../facts.ts';
import { detectFormat } from './parse-text.ts';
import { PARSERS } from './registry.ts';
import type { ParsedOutput, ParserRun } from './types.ts';

/** Lines a parser needs to recognise its format. */
export const DETECT_LINES = 50;

/**
 * Feeds an input's lines to the parser whose format it has, for the diagnosis. It holds the first
 * 50 lines until it can detect the format, then streams. Input that is no known format, or that a
 * parser cannot use, simply adds no facts: the extractors still read every line.
 */
export class ParsedFacts {
  private readonly head: string[] = [];
  private run?: ParserRun;
  private decided = false;
  private lineNo = 0;
  private result?: ParsedOutput;
  /** Why the detected parser gave up, if it did (kept for the CLI and tests, never thrown). */
  failure?: string;

  /** For lines no parser reads: already decided, nothing detected. */
  static none(): ParsedFacts {
    const none = new ParsedFacts();
    none.decided = true;
    return none;
  }

  push(lines: readonly string[]): void {
    for (const line of lines) {
      this.lineNo++;
      if (this.run) this.feed(line, this.lineNo);
      else if (!this.decided) {
        this.head.push(line);
        if (this.head.length >= DETECT_LINES) this.decide();
      }
    }
  }

  /** False once the input is known to be no format a parser reads: its lines may then be skipped. */
  get readsEveryLine(): boolean {
    return !this.decided || this.run !== undefined;
  }

  /** Moves past lines nobody reads (only once `readsEveryLine` is false). */
  skip(count: number): void {
    this.lineNo += count;
  }

  private decide(): void {
    this.decided = true;
    const format = detectFormat(this.head);
    const parser = format ? PARSERS[format] : undefined;
    if (!parser) return;
    this.run = parser.create();
    this.head.forEach((line, i) => {
      this.feed(line, i + 1);
    });
    this.head.length = 0;
  }

  private feed(line: string, lineNo: number): void {
    try {
      this.run?.push(line, lineNo);
    } catch (error) {
      this.stop(error);
    }
  }

  private stop(error: unknown): void {
    // A parser bug or an unusable input must never stop the diagnosis: drop the parser, keep going.
    this.failure = error instanceof Error ? error.message : String(error);
    this.run = undefined;
  }

  /** The parsed output, once the input has ended (undefined when no parser applied). */
  finish(): ParsedOutput | undefined {
    if (!this.decided) this.decide();
    if (!this.run) return this.result;
    try {
      this.result = this.run.finish();
    } catch (error) {
      this.stop(error);
    }
    this.run = undefined;
    return this.result;
  }

  /** The facts of the parsed output, for the FactBook. */
  facts(): Fact[] {
    return this.finish()?.facts ?? [];
  }
}
