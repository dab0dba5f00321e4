import type { FactValue } from '../engine/facts.ts';
import { readLines } from '../engine/ingest/lines.ts';
import { lineLimitOf, parseLines } from '../engine/parsers/parse-stream.ts';
import { PARSERS } from '../engine/parsers/registry.ts';
import type { ParsedOutput } from '../engine/parsers/types.ts';
import { UsageError } from '../errors.ts';

export { formatSize } from '../engine/units.ts';
export type { FactValue, ParsedOutput };

/** One parser as a listing shows it. */
export interface ParserEntry {
  id: string;
  title: string;
  howToGet: string;
}

/** Every parser a dump can be read with, in registry order (`memdoctor parse list`). */
export function listParsers(): ParserEntry[] {
  return Object.values(PARSERS).map(({ id, title, howToGet }) => ({ id, title, howToGet }));
}

/**
 * Reads a dump (pmap, NMT, a GC log...) with the parser named, or `auto` to detect it; throws a
 * UsageError naming the known parsers for an unknown one, before the input is opened.
 */
export async function parseDump(
  parser: string,
  input: { source: string; open: () => AsyncIterable<Uint8Array> },
): Promise<ParsedOutput> {
  if (parser !== 'auto' && !PARSERS[parser])
    throw new UsageError(`unknown parser "${parser}". Known: auto, ${Object.keys(PARSERS).join(', ')}.`);
  // A named parser that reads one-line JSON gets its whole lines; `auto` detects on cut ones.
  const maxLineChars = lineLimitOf(parser);
  const batches = await readLines(input.source, input.open(), { bytes: 0, lines: 0 }, { maxLineChars });
  return parseLines(parser, batches, maxLineChars);
}

/**
 * A file's text in whole lines, for a walkthrough's paste step: the step's parser cuts lines at its
 * own limit (one-line JSON may be longer than the engine's 16 KiB lines). Throws past `maxBytes`.
 */
export async function readPasteText(
  source: string,
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
): Promise<string> {
  const limits = { maxBytes, maxLineChars: maxBytes };
  const lines: string[] = [];
  for await (const batch of await readLines(source, chunks, { bytes: 0, lines: 0 }, limits))
    lines.push(...batch);
  return lines.join('\n');
}
