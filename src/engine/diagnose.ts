import { DERIVATIONS } from './derive/registry.ts';
import { EXTRACTORS } from './extractors/registry.ts';
import type { Extractor } from './extractors/types.ts';
import { type Fact, FactBook, type Finding } from './facts.ts';
import type { InputStats, ReadLimits } from './ingest/lines.ts';
import { evidenceText, isFence, normalise } from './ingest/normalise.ts';
import { type LineSink, LineSkimmer } from './ingest/skim.ts';
import { factsFor, type PlaybookMatch, rankPlaybooks } from './match.ts';
import { ParsedFacts } from './parsers/collect.ts';
import type { Action, Cause, Playbook } from './playbook/schema.ts';
import { fill } from './templates.ts';
import { TriggerIndex, triggerKey } from './triggers.ts';

/** Systems a user can name when the input alone does not show it (`--engine`, `/memdoctor glue ...`). */
export const ENGINE_HINTS = ['glue', 'spark', 'flink', 'beam'] as const;
export type EngineHint = (typeof ENGINE_HINTS)[number];

/** Facts a hint stands for: Glue runs Spark, so a Glue hint is also a Spark one. */
const HINT_FACTS: Readonly<Record<EngineHint, readonly string[]>> = {
  glue: ['engine.glue', 'engine.spark'],
  spark: ['engine.spark'],
  flink: ['engine.flink'],
  beam: ['engine.beam'],
};

export interface Evidence {
  line: number;
  text: string;
}

/** One diagnosis, in the shape of the `diagnose --json` contract. */
export interface Diagnosis {
  playbook: string;
  title: string;
  confidence: number;
  cause: string | null;
  evidence: Evidence[];
  facts: Record<string, unknown>;
  actions: string[];
}

export interface DiagnoseOptions {
  engine?: EngineHint;
  extractors?: readonly Extractor[];
  /**
   * False: read every line, as the engine did before it learned to skip lines that can no longer
   * change the answer. The same input gives the same result either way; tests compare the two.
   */
  skim?: boolean;
}

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
 * Below this confidence a diagnosis rests on weak facts only, and says so first: which facts they
 * are and what would confirm them (the playbook's `why` of each signal).
 */
export const WEAK_CONFIDENCE = 0.5;

/** Most evidence lines a diagnosis cites: enough to check it, short enough to read. */
const MAX_EVIDENCE = 8;

/** The kinds a literal can still give through the extractors it opens; undefined: any at all. */
function literalReach(literal: string, extractors: readonly Extractor[]): readonly string[] | undefined {
  const kinds = new Set<string>();
  for (const extractor of extractors) {
    for (const trigger of extractor.triggers) {
      if (triggerKey(extractor, trigger) !== literal) continue;
      const reach = extractor.triggerKinds?.[trigger] ?? extractor.kinds;
      if (reach === undefined) return undefined;
      for (const kind of reach) kinds.add(kind);
    }
  }
  return [...kinds];
}

/** What a collector derives from its extractors alone: built once for the shipped ones. */
interface Prepared {
  triggers: TriggerIndex;
  reach: ReadonlyMap<string, readonly string[] | undefined>;
}

function prepare(extractors: readonly Extractor[]): Prepared {
  const triggers = new TriggerIndex(extractors);
  const reach = new Map(triggers.literals.map((literal) => [literal, literalReach(literal, extractors)]));
  return { triggers, reach };
}

const SHIPPED: { extractors: readonly Extractor[]; prepared?: Prepared } = {
  extractors: Object.values(EXTRACTORS),
};

function shipped(): Prepared {
  SHIPPED.prepared ??= prepare(SHIPPED.extractors);
  return SHIPPED.prepared;
}

/**
 * Runs every extractor over a stream of line batches, collecting facts with their line numbers. As a
 * LineSink it also tells the reader which lines can be skipped: those holding no live literal.
 */
export class FactCollector implements LineSink {
  readonly book = new FactBook();
  private lineNo = 0;
  private readonly extractors: readonly Extractor[];
  /** Finds which extractors each line opens: a line without any trigger costs one scan. */
  private readonly triggers: TriggerIndex;
  private readonly parsed = new ParsedFacts();
  /** Extractors that threw, by index: the first failure and how often. */
  private readonly failed = new Map<number, StageFailure>();
  private readonly wanted = (kind: string): boolean => !this.book.isFull(kind);
  /** Each literal with the kinds it can still give (undefined: it is always worth reading). */
  private readonly reach: ReadonlyMap<string, readonly string[] | undefined>;
  private live?: readonly string[];
  private liveAt = -1;

  constructor(extractors: readonly Extractor[] = SHIPPED.extractors, engine?: EngineHint) {
    this.extractors = extractors;
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
      const opened = this.triggers.opened(raw);
      if (opened.size === 0 || isFence(raw)) continue;
      this.scan(raw, normalise(raw), opened);
    }
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
    if (this.liveAt !== this.book.fullKinds) {
      this.liveAt = this.book.fullKinds;
      const live = [...this.reach]
        .filter(([, kinds]) => kinds === undefined || kinds.some(this.wanted))
        .map(([literal]) => literal);
      if (live.length !== this.live?.length) this.live = live;
    }
    return this.live;
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

/** The first cause (in the playbook's order) whose facts are present. */
function causeOf(book: FactBook, playbook: Playbook): { cause: Cause; facts: Fact[] } | undefined {
  for (const cause of playbook.causes) {
    const facts = cause.when.flatMap((ref) => factsFor(book, ref));
    if (facts.length > 0) return { cause, facts };
  }
  return undefined;
}

function derivedValues(book: FactBook, playbook: Playbook): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, fact] of book.allConfigs()) values[`config.${key}`] = String(fact.values?.value ?? '');
  for (const name of playbook.derive) Object.assign(values, DERIVATIONS[name]?.(book) ?? {});
  return values;
}

function renderActions(book: FactBook, actions: readonly Action[], values: Record<string, string>): string[] {
  const out: string[] = [];
  for (const action of actions) {
    if (action.when && !action.when.some((ref) => factsFor(book, ref).length > 0)) continue;
    if (action.unless?.some((ref) => factsFor(book, ref).length > 0)) continue;
    const text = fill(action.text, values) ?? (action.otherwise && fill(action.otherwise, values));
    if (text) out.push(text);
  }
  return out;
}

/** Facts that only say where the input came from; they support a diagnosis but rarely explain it. */
function isContext(fact: Fact): boolean {
  return /^(?:engine|platform|runtime)\./.test(fact.kind);
}

/** Most context-only lines cited, so that symptom lines are never crowded out by stack frames. */
const MAX_CONTEXT_EVIDENCE = 2;

/**
 * The lines a diagnosis cites: symptom lines first, then cause lines, then a little context, each
 * line once, shown in input order.
 */
function evidenceOf(
  symptoms: readonly Fact[],
  causes: readonly Fact[],
  context: readonly Fact[],
): Evidence[] {
  const chosen = new Map<number, string>();
  const take = (facts: readonly Fact[], limit: number) => {
    let taken = 0;
    for (const fact of facts) {
      if (chosen.size >= MAX_EVIDENCE || taken >= limit) return;
      if (fact.line <= 0 || chosen.has(fact.line)) continue;
      chosen.set(fact.line, fact.text);
      taken++;
    }
  };
  take(symptoms, MAX_EVIDENCE);
  take(causes, MAX_EVIDENCE);
  take(context, MAX_CONTEXT_EVIDENCE);
  return [...chosen].sort(([a], [b]) => a - b).map(([line, text]) => ({ line, text }));
}

function factSummary(match: PlaybookMatch, values: Record<string, string>): Record<string, unknown> {
  const signals: Record<string, unknown> = {};
  for (const signal of match.signals) {
    signals[signal.fact] = {
      weight: signal.weight,
      lines: [...new Set(signal.facts.map((f) => f.line))].sort((a, b) => a - b),
      ...(signal.facts[0]?.values ?? {}),
    };
  }
  return {
    signals,
    values: Object.fromEntries(Object.entries(values).sort(([a], [b]) => a.localeCompare(b))),
  };
}

/** For a weak match, one sentence naming what its facts suggest and what would confirm them. */
function weakEvidenceNote(match: PlaybookMatch): string | undefined {
  if (match.confidence >= WEAK_CONFIDENCE) return undefined;
  const whys = match.signals
    .filter((s) => s.weight > 0 && s.why && !s.facts.every(isContext))
    .map((s) => s.why as string);
  if (whys.length === 0) return undefined;
  return `Low confidence (${Math.round(match.confidence * 100)}%): ${[...new Set(whys)].join('; ')}.`;
}

/** Builds the contract's diagnosis from a playbook match. */
export function toDiagnosis(book: FactBook, match: PlaybookMatch): Diagnosis {
  const { playbook } = match;
  const found = causeOf(book, playbook);
  const values = derivedValues(book, playbook);
  const weak = weakEvidenceNote(match);
  const actions = [
    ...(weak ? [weak] : []),
    ...renderActions(book, found?.cause.actions ?? [], values),
    ...renderActions(book, playbook.actions, values),
  ];
  const supporting = [
    ...match.required,
    ...match.signals.filter((s) => s.weight > 0).flatMap((s) => s.facts),
  ];
  const byLine = (a: Fact, b: Fact) => a.line - b.line;
  const symptoms = supporting.filter((f) => !isContext(f)).sort(byLine);
  const context = supporting.filter(isContext).sort(byLine);
  return {
    playbook: playbook.id,
    title: playbook.title,
    confidence: match.confidence,
    cause: found?.cause.id ?? null,
    evidence: evidenceOf(symptoms, [...(found?.facts ?? [])].sort(byLine), context),
    facts: factSummary(match, values),
    actions: [...new Set(actions)].slice(0, 6),
  };
}

/** Ranks the playbooks against collected facts and renders the diagnoses, best first. */
export function diagnoseFacts(book: FactBook, playbooks: readonly Playbook[]): Diagnosis[] {
  return rankPlaybooks(book, playbooks)
    .map((match) => toDiagnosis(book, match))
    .filter((d) => d.evidence.length > 0);
}

/** What a stream of lines gave: the diagnoses, the facts found (without lines), and what failed. */
export interface LinesDiagnosis {
  diagnoses: Diagnosis[];
  findings: Finding[];
  failures: StageFailure[];
}

/** Diagnoses a stream of line batches, every line read. Pure apart from consuming the stream. */
export async function diagnoseLines(
  batches: AsyncIterable<readonly string[]>,
  playbooks: readonly Playbook[],
  options: DiagnoseOptions = {},
): Promise<LinesDiagnosis> {
  const collector = new FactCollector(options.extractors, options.engine);
  for await (const batch of batches) collector.push(batch);
  return concluded(collector, playbooks);
}

/**
 * Diagnoses text bytes, reading only the lines that can still change the answer (see LineSkimmer).
 * Same result as diagnoseLines over splitLines of the same bytes.
 */
export async function diagnoseBytes(
  source: string,
  bytes: AsyncIterable<Uint8Array>,
  stats: InputStats,
  playbooks: readonly Playbook[],
  options: DiagnoseOptions & ReadLimits = {},
): Promise<LinesDiagnosis> {
  const collector = new FactCollector(options.extractors, options.engine);
  await new LineSkimmer(source, collector, stats, options).read(bytes);
  return concluded(collector, playbooks);
}

function concluded(collector: FactCollector, playbooks: readonly Playbook[]): LinesDiagnosis {
  collector.finish();
  return {
    diagnoses: diagnoseFacts(collector.book, playbooks),
    findings: collector.book.findings(),
    failures: collector.failures(),
  };
}
