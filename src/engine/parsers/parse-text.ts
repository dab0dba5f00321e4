import { ParseFailedError } from '../../errors.ts';
import { LineCutter, lineLimit } from './line-limit.ts';
import { PARSERS } from './registry.ts';
import type { ParsedOutput } from './types.ts';

/**
 * Parses pasted output with a named parser. When it does not look like that format, the error says
 * what was expected and which command produces it. Lines are cut as ingest cuts them (a chat reply
 * is as hostile as an uploaded file), at the parser's own limit where it reads long JSON lines.
 */
export function parseText(parserId: string, text: string): ParsedOutput {
  const parser = PARSERS[parserId];
  if (!parser)
    throw new ParseFailedError(`unknown parser "${parserId}" (known: ${Object.keys(PARSERS).join(', ')})`);
  if (parser.emptyAnswer && isEmptyAnswer(text)) throw new ParseFailedError(parser.emptyAnswer);
  const cutter = new LineCutter(lineLimit(parser));
  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line, i) => cutter.cut(line, i + 1));
  if (!parser.detect(lines.slice(0, 50))) {
    throw new ParseFailedError(
      `this does not look like ${parser.title} output: run ${parser.howToGet} and paste what it prints.`,
    );
  }
  const run = parser.create();
  for (const [i, line] of lines.entries()) run.push(line, i + 1);
  try {
    return run.finish();
  } catch (error) {
    throw cutter.explain(error);
  }
}

/** Blank text, or a JSON list with nothing in it (`[]`, `[ ]`): an answer that holds nothing. */
export function isEmptyAnswer(text: string): boolean {
  return /^\s*(?:\[\s*\]\s*)?$/.test(text);
}

/** The parser whose format the text has, if any. */
export function detectFormat(head: readonly string[]): string | undefined {
  return Object.values(PARSERS).find((p) => !p.explicitOnly && p.detect(head))?.id;
}
