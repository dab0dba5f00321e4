import { FactCollector } from './collector.ts';
import type { Extractor } from './extractors/types.ts';
import type { BookContents } from './facts.ts';
import type { InputStats, ReadLimits } from './ingest/lines.ts';
import type { CutLines } from './ingest/long-line.ts';
import { LineSkimmer } from './ingest/skim.ts';

/** What the lines of a part of an input (a block, a range) gave, as plain data. */
export interface BlockFacts {
  lines: number;
  /** The part's lines longer than the limit, numbered from the part's start. */
  cut?: CutLines;
  book: BookContents;
  /**
   * False when taking the book in could differ from reading the lines in order (an extractor failed
   * on a line, or the part saw more config keys than a book keeps): its bytes are then read again in
   * order.
   */
  exact: boolean;
}

/** What a part read by a thread from the input itself gave: BlockFacts and the bytes it read. */
export interface RangeFacts extends BlockFacts {
  bytes: number;
}

/** What a part of an input is read with besides its bytes: the line limit, the kinds already kept. */
export interface PartLimits {
  maxLineChars?: number;
  /**
   * Kinds the lines before the part gave in full when it was handed out: the part need not look
   * for them (without them, every part would read as slowly as an input's start).
   */
  keptInFull?: string[];
}

/** The line limit alone, as the readers take it (the byte limit is the input's, checked once). */
export function lineLimits(maxLineChars: number | undefined): ReadLimits {
  return maxLineChars === undefined ? {} : { maxLineChars };
}

/** Reads whole lines from the middle of an input into a collector, in order; what was counted. */
export function readLinesInto(
  source: string,
  collector: FactCollector,
  limits: ReadLimits,
  chunks: Iterable<Uint8Array>,
): InputStats {
  const counted: InputStats = { bytes: 0, lines: 0 };
  const skimmer = new LineSkimmer(source, collector, counted, limits, true);
  for (const chunk of chunks) skimmer.chunk(chunk);
  skimmer.end();
  return counted;
}

/**
 * Reads whole lines from the middle of an input with a collector of their own: no parser (decided
 * at the input's start), no hint.
 */
export function collectPart(
  chunks: Iterable<Uint8Array>,
  part: PartLimits,
  extractors?: readonly Extractor[],
): RangeFacts {
  const keptInFull = part.keptInFull ?? [];
  const collector = new FactCollector(extractors, undefined, { parse: false, keptInFull });
  const { bytes, lines, cut } = readLinesInto('block', collector, lineLimits(part.maxLineChars), chunks);
  collector.finish();
  const book = collector.book.contents();
  const exact = collector.failures().length === 0 && !book.configsCapped;
  return { bytes, lines, book, exact, ...(cut ? { cut } : {}) };
}
