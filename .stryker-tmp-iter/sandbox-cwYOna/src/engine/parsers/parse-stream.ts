// @ts-nocheck
import { ParseFailedError } from '../../errors.ts';
import { DETECT_LINES } from './collect.ts';
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

/**
 * Parses a stream of line batches with a named parser, or `auto` to detect the format from the first
 * lines. Streams after the head, so a multi-GiB GC log or event log never sits in memory.
 */
export async function parseLines(
  parserId: string,
  batches: AsyncIterable<readonly string[]>,
): Promise<ParsedOutput> {
  const head: string[] = [];
  let run: ParserRun | undefined;
  let lineNo = 0;
  for await (const batch of batches) {
    for (const line of batch) {
      lineNo++;
      if (run) run.push(line, lineNo);
      else {
        head.push(line);
        if (head.length === DETECT_LINES) run = start(parserId, head);
      }
    }
  }
  run ??= start(parserId, head);
  return run.finish();
}

function start(parserId: string, head: string[]): ParserRun {
  const run = choose(parserId, head).create();
  head.forEach((line, i) => {
    run.push(line, i + 1);
  });
  return run;
}
