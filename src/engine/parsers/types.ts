import type { ChartData } from '../charts/types.ts';
import type { Fact } from '../facts.ts';

/** What a parser read from one piece of command output. */
export interface ParsedOutput {
  /** The parser id, e.g. `pmap`, `nmt-summary`. */
  format: string;
  /** Typed facts with the line each came from, for the diagnosis engine. */
  facts: Fact[];
  /** Figures a walkthrough branches on, e.g. `{ arenaCount: 12, anonRssBytes: 1.2e9 }`. */
  values: Record<string, number | string | boolean>;
  /** One or two sentences a person reads: what the output shows, with the figures. */
  summary: string;
  /** A short verdict when the format supports one, e.g. "arena growth likely". */
  verdict?: string;
  /** The figures to draw this output from (series, sizes), when it has a picture; see src/engine/charts. */
  chart?: ChartData;
}

/** One streaming run of a parser over an input. */
export interface ParserRun {
  push(line: string, lineNo: number): void;
  /** Throws ParseFailedError ("could not parse: expected ...") when the input was not usable. */
  finish(): ParsedOutput;
}

/**
 * Reads one kind of diagnostic output (pmap -x, NMT summary, GC log...). Streaming, so it also works
 * on a multi-GiB upload. One parser = one file + one line in registry.ts.
 */
export interface Parser {
  readonly id: string;
  readonly title: string;
  /** The command a person runs to produce this output, shown when a paste does not parse. */
  readonly howToGet: string;
  /** True when the first lines (up to 50) look like this format. */
  detect(head: readonly string[]): boolean;
  /**
   * Only used when a step names it, never guessed from content: a format that any text matches (a
   * plain list) would otherwise claim every uploaded log.
   */
  readonly explicitOnly?: boolean;
  /**
   * Longest line it reads whole, when longer than the engine's 16 KiB cut: JSON that a tool prints on
   * one line (Flink's REST API answers minified). Such a parser reads long lines with linear work only.
   */
  readonly maxLineChars?: number;
  /**
   * What an answer that holds nothing (blank, or an empty JSON list) means for this output, said in
   * place of "does not look like": a valid empty answer is not the wrong output.
   */
  readonly emptyAnswer?: string;
  create(): ParserRun;
}
