import type { ChartData } from './charts/types.ts';
import { EXTRACTORS } from './extractors/registry.ts';
import type { Extractor } from './extractors/types.ts';
import { type BookContents, FactBook } from './facts.ts';
import type { EngineHint } from './hints.ts';
import { type LiteralScanner, rarestWindowsJson } from './ingest/literal-scan.ts';
import { evidenceText, isFence, normalise } from './ingest/normalise.ts';
import type { LineSink } from './ingest/skim.ts';
import { ParsedFacts } from './parsers/collect.ts';
import { TriggerIndex, triggerKey } from './triggers.ts';

/** Facts a hint stands for: Glue runs Spark, so a Glue hint is also a Spark one. */
const HINT_FACTS: Readonly<Record<EngineHint, readonly string[]>> = {
  glue: ['engine.glue', 'engine.spark'],
  spark: ['engine.spark'],
  flink: ['engine.flink'],
  beam: ['engine.beam'],
};

/**
 * A part of the engine that failed on this input (a parser, an extractor). It is skipped where it
 * failed and the diagnosis goes on without it; the failure is reported, never thrown.
 */
export interface StageFailure {
  stage: 'parser' | 'extractor';
  /** The extractor's id; a parser's message names its format. */
  id?: string;
  message: string;
  /** The first input line it failed on (extractors). */
  line?: number;
  /** On how many lines it failed. */
  count: number;
}

/**
 * For each literal, the kinds it can still give through the extractors it opens; undefined: any at
 * all (an extractor that does not say which kinds that trigger gives).
 */
function literalReach(extractors: readonly Extractor[]): Map<string, readonly string[] | undefined> {
  const reach = new Map<string, Set<string> | undefined>();
  for (const extractor of extractors) {
    for (const trigger of extractor.triggers) {
      const literal = triggerKey(extractor, trigger);
      const kinds = extractor.triggerKinds?.[trigger] ?? extractor.kinds;
      const known = reach.has(literal) ? reach.get(literal) : new Set<string>();
      if (known === undefined || kinds === undefined) {
        reach.set(literal, undefined);
        continue;
      }
      for (const kind of kinds) known.add(kind);
      reach.set(literal, known);
    }
  }
  return new Map([...reach].map(([literal, kinds]) => [literal, kinds && [...kinds]]));
}

/** What a collector derives from its extractors alone: built once for the shipped ones. */
interface Prepared {
  triggers: TriggerIndex;
  reach: ReadonlyMap<string, readonly string[] | undefined>;
}

function prepare(extractors: readonly Extractor[]): Prepared {
  const triggers = new TriggerIndex(extractors);
  const reachOf = literalReach(extractors);
  const reach = new Map(triggers.literals.map((literal) => [literal, reachOf.get(literal)]));
  return { triggers, reach };
}

const SHIPPED: { extractors: readonly Extractor[]; prepared?: Prepared } = {
  extractors: Object.values(EXTRACTORS),
};

function shipped(): Prepared {
  SHIPPED.prepared ??= prepare(SHIPPED.extractors);
  return SHIPPED.prepared;
}

/** Finds every trigger of the extractors (the registry's by default), for readers without a collector. */
export function triggerScanner(extractors?: readonly Extractor[]): LiteralScanner | undefined {
  return (extractors && extractors !== SHIPPED.extractors ? prepare(extractors) : shipped()).triggers.scanner;
}

/** windows.json as the build writes it: the rarest scan window of every shipped trigger. */
export function shippedWindowsJson(): string {
  return rarestWindowsJson(new TriggerIndex(SHIPPED.extractors).literals);
}

/**
 * Runs every extractor over a stream of line batches, collecting facts with their line numbers. As a
 * LineSink it also tells the reader which lines can be skipped: those holding no live literal.
 */
export class FactCollector implements LineSink {
  readonly book: FactBook;
  private lineNo = 0;
  private readonly extractors: readonly Extractor[];
  /** Finds which extractors each line opens: a line without any trigger costs one scan. */
  private readonly triggers: TriggerIndex;
  private readonly parsed: ParsedFacts;
  /** Extractors that threw, by index: the first failure and how often. */
  private readonly failed = new Map<number, StageFailure>();
  private readonly wanted = (kind: string): boolean => !this.book.isFull(kind);
  /** Each literal with the kinds it can still give (undefined: it is always worth reading). */
  private readonly reach: ReadonlyMap<string, readonly string[] | undefined>;
  private live?: readonly string[];
  /** The flags `live` was made from. */
  private liveOf?: readonly boolean[];
  /** For each trigger literal (its id in `triggers`), whether it is live: see liveLiterals. */
  private liveIds: readonly boolean[] = [];
  private liveAt = -1;
  /** For each of `live`, its id in `triggers`. */
  private liveIdOf?: readonly number[];

  /**
   * For a block of lines from the middle of an input (blocks.ts): `parse: false`, since whether a
   * parser reads the input was decided at its start; `keptInFull`, the kinds the lines before the
   * block already gave in full (FactBook.after).
   */
  constructor(
    extractors: readonly Extractor[] = SHIPPED.extractors,
    engine?: EngineHint,
    options: { parse?: boolean; keptInFull?: readonly string[] } = {},
  ) {
    this.extractors = extractors;
    this.book = options.keptInFull ? FactBook.after(options.keptInFull) : new FactBook();
    this.parsed = options.parse === false ? ParsedFacts.none() : new ParsedFacts();
    const prepared = extractors === SHIPPED.extractors ? shipped() : prepare(extractors);
    this.triggers = prepared.triggers;
    this.reach = prepared.reach;
    if (engine)
      for (const kind of HINT_FACTS[engine]) this.book.add({ kind, line: 0, text: `--engine ${engine}` });
  }

  push(lines: readonly string[]): void {
    this.parsed.push(lines);
    for (const raw of lines) {
      this.lineNo++;
      if (raw.length === 0) continue;
      // An extractor opened only by dead triggers could give the line nothing the book still wants.
      this.read(raw, this.triggers.opened(raw, this.liveFlags()));
    }
  }

  pushFound(line: string, literals: readonly string[], found: readonly number[]): void {
    // Ids into another array than the live one now: found again in the text.
    if (literals !== this.live || this.liveIdOf === undefined) {
      this.push([line]);
      return;
    }
    this.parsed.push([line]);
    this.lineNo++;
    if (line.length === 0) return;
    this.read(line, this.triggers.openedBy(found, this.liveIdOf));
  }

  private read(raw: string, opened: ReadonlySet<number>): void {
    if (opened.size === 0 || isFence(raw)) return;
    this.scan(raw, normalise(raw), opened);
  }

  everyLine(): boolean {
    return this.parsed.readsEveryLine;
  }

  skip(count: number): void {
    this.lineNo += count;
    this.parsed.skip(count);
  }

  /**
   * The literals a line must hold to change the answer: those whose extractors can still give a kind
   * the book does not keep in full. The set only shrinks; it is rebuilt when a kind fills.
   */
  liveLiterals(): readonly string[] | undefined {
    // Lines may be skipped only if the byte scan can find every literal.
    if (!this.triggers.scannable) return undefined;
    const flags = this.liveFlags();
    if (flags !== this.liveOf) {
      this.liveOf = flags;
      const ids = this.triggers.literals.flatMap((_, id) => (flags[id] ? [id] : []));
      if (ids.length !== this.live?.length) {
        this.live = ids.map((id) => this.triggers.literals[id] as string);
        this.liveIdOf = ids;
      }
    }
    return this.live;
  }

  /** Which trigger literals are live, by id; rebuilt when a kind fills. */
  private liveFlags(): readonly boolean[] {
    if (this.liveAt !== this.book.fullKinds) {
      this.liveAt = this.book.fullKinds;
      this.liveIds = this.triggers.literals.map((literal) => {
        const kinds = this.reach.get(literal);
        return kinds === undefined || kinds.some(this.wanted);
      });
    }
    return this.liveIds;
  }

  /** Finds every trigger: what a line longer than the limit is searched for (undefined: not scannable). */
  cutScanner(): LiteralScanner | undefined {
    return this.triggers.scanner;
  }

  /**
   * Takes in the facts another collector (`parse: false`, no failures) found in the `lines` lines
   * that follow the ones read here, as if this collector had read them itself (FactBook.absorb).
   */
  absorb(book: BookContents, lines: number): void {
    this.book.absorb(book, this.lineNo);
    this.skip(lines);
  }

  /** The recognised dump's chart data, once the input has ended. */
  chart(): ChartData | undefined {
    return this.parsed.finish()?.chart;
  }

  /** Adds the facts of a recognised dump (pmap, NMT, GC log...) once the input has ended. */
  finish(): void {
    for (const fact of this.parsed.facts()) this.book.add(fact);
  }

  private scan(raw: string, line: string, opened: ReadonlySet<number>): void {
    const at = { raw, text: undefined as string | undefined };
    for (let i = 0; i < this.extractors.length; i++) {
      if (!opened.has(i)) continue;
      try {
        this.collect(this.extractors[i] as Extractor, line, at);
      } catch (error) {
        // An extractor's bug must never stop the diagnosis: skip it on this line, report it, go on.
        this.fail(i, error);
      }
    }
  }

  private collect(extractor: Extractor, line: string, at: { raw: string; text: string | undefined }): void {
    for (const finding of extractor.extract(line, this.wanted)) {
      // Most lines only repeat facts the book already holds enough of: count them, build nothing.
      if (this.book.tally(finding.kind)) continue;
      at.text ??= evidenceText(at.raw);
      this.book.add({ ...finding, line: this.lineNo, text: at.text });
    }
  }

  private fail(index: number, error: unknown): void {
    const known = this.failed.get(index);
    if (known) {
      known.count++;
      return;
    }
    const id = (this.extractors[index] as Extractor).id;
    const message = error instanceof Error ? error.message : String(error);
    this.failed.set(index, { stage: 'extractor', id, message, line: this.lineNo, count: 1 });
  }

  /** What failed on this input, extractors in registry order, then the parser; call after finish(). */
  failures(): StageFailure[] {
    const extractors = [...this.failed].sort(([a], [b]) => a - b).map(([, failure]) => ({ ...failure }));
    const parser = this.parsed.failure;
    return parser === undefined
      ? extractors
      : [...extractors, { stage: 'parser', message: parser, count: 1 }];
  }
}
