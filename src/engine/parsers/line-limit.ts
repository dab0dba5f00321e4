import { ParseFailedError } from '../../errors.ts';
import { MAX_LINE_CHARS } from '../ingest/lines.ts';
import type { Parser } from './types.ts';

/** The longest line a parser reads whole: its own limit (JSON on one line), else the engine's. */
export function lineLimit(parser: Parser): number {
  return parser.maxLineChars ?? MAX_LINE_CHARS;
}

/**
 * Cuts lines at a parser's limit, as ingest does, and remembers the first one it cut, so that a parse
 * failure can say why: the figures past the cut were never read.
 */
export class LineCutter {
  private firstCut?: { lineNo: number; length: number };

  constructor(readonly limit: number) {}

  cut(line: string, lineNo: number): string {
    if (line.length < this.limit) return line;
    // A line of exactly the limit may already have been cut by ingest: say so as well.
    this.firstCut ??= { lineNo, length: line.length };
    return line.length > this.limit ? line.slice(0, this.limit) : line;
  }

  /** The parser's failure, with a note on the cut line when there was one. */
  explain(error: unknown): unknown {
    if (!(error instanceof ParseFailedError) || !this.firstCut) return error;
    const { lineNo, length } = this.firstCut;
    const size = length > this.limit ? `${length} characters` : `at least ${length} characters`;
    return new ParseFailedError(
      `${error.message} (line ${lineNo} has ${size}; memdoctor reads the first ${this.limit} characters of a line: leave that line out, or put JSON on several lines with \`jq .\`)`,
    );
  }
}
