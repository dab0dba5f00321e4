import { ParseFailedError } from '../../errors.ts';
import { MAX_LINE_CHARS } from '../ingest/lines.ts';
import { DETECT_LINES } from './collect.ts';
import { LineCutter, lineLimit } from './line-limit.ts';
import { detectFormat } from './parse-text.ts';
import { PARSERS } from './registry.ts';
import type { ParsedOutput, Parser, ParserRun } from './types.ts';

function choose(parserId: string, head: readonly string[]): Parser {
  if (parserId === 'auto') {
    const found = detectFormat(head);
    const parser = found ? PARSERS[found] : undefined;
    if (!parser)
      throw new ParseFailedError(
        `could not recognise the format from the first ${DETECT_LINES} lines; name it instead: one of ${Object.keys(PARSERS).join(', ')}.`,
      );
    return parser;
  }
  const parser = PARSERS[parserId];
  if (!parser)
    throw new ParseFailedError(`unknown parser "${parserId}" (known: ${Object.keys(PARSERS).join(', ')})`);
  if (!parser.detect(head))
    throw new ParseFailedError(
      `this does not look like ${parser.title} output: run ${parser.howToGet} and give memdoctor what it prints.`,
    );
  return parser;
}

/** A parser's run that cuts every line at the parser's limit (the reader may have allowed longer). */
class CutRun {
  private readonly cutter: LineCutter;
  private readonly run: ParserRun;

  constructor(parser: Parser, head: readonly string[], readerLimit: number) {
    this.cutter = new LineCutter(Math.min(lineLimit(parser), readerLimit));
    this.run = parser.create();
    head.forEach((line, i) => {
      this.push(line, i + 1);
    });
  }

  push(line: string, lineNo: number): void {
    this.run.push(this.cutter.cut(line, lineNo), lineNo);
  }

  finish(): ParsedOutput {
    try {
      return this.run.finish();
    } catch (error) {
      throw this.cutter.explain(error);
    }
  }
}

/**
 * Parses a stream of line batches with a named parser, or `auto` to detect the format from the first
 * lines. Streams after the head, so a multi-GiB GC log or event log never sits in memory.
 * `readerLimit` is where the reader cut the lines, so a failure can say that a line was cut.
 */
export async function parseLines(
  parserId: string,
  batches: AsyncIterable<readonly string[]>,
  readerLimit = MAX_LINE_CHARS,
): Promise<ParsedOutput> {
  const head: string[] = [];
  let run: CutRun | undefined;
  let lineNo = 0;
  for await (const batch of batches) {
    for (const line of batch) {
      lineNo++;
      if (run) run.push(line, lineNo);
      else {
        head.push(line);
        if (head.length === DETECT_LINES) run = new CutRun(choose(parserId, head), head, readerLimit);
      }
    }
  }
  run ??= new CutRun(choose(parserId, head), head, readerLimit);
  return run.finish();
}

/** The longest line the named parser reads (for the reader); `auto` gets the engine's cut. */
export function lineLimitOf(parserId: string): number {
  const parser = PARSERS[parserId];
  return parser ? lineLimit(parser) : MAX_LINE_CHARS;
}
