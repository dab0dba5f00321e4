// @ts-nocheck
import { ParseFailedError } from '../../errors.ts';
import { PARSERS } from './registry.ts';
import type { ParsedOutput } from './types.ts';

/**
 * Parses pasted output with a named parser. When it does not look like that format, the error says
 * what was expected and which command produces it.
 */
export function parseText(parserId: string, text: string): ParsedOutput {
  const parser = PARSERS[parserId];
  if (!parser)
    throw new ParseFailedError(`unknown parser "${parserId}" (known: ${Object.keys(PARSERS).join(', ')})`);
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (!parser.detect(lines.slice(0, 50))) {
    throw new ParseFailedError(
      `this does not look like ${parser.title} output: run ${parser.howToGet} and paste what it prints.`,
    );
  }
  const run = parser.create();
  for (const [i, line] of lines.entries()) run.push(line, i + 1);
  return run.finish();
}

/** The parser whose format the text has, if any. */
export function detectFormat(head: readonly string[]): string | undefined {
  return Object.values(PARSERS).find((p) => !p.explicitOnly && p.detect(head))?.id;
}
