import { type BlockOptions, BlockReader } from './blocks.ts';
import type { ChartData } from './charts/types.ts';
import { FactCollector, type StageFailure } from './collector.ts';
import { DERIVATIONS } from './derive/registry.ts';
import type { Extractor } from './extractors/types.ts';
import type { Fact, FactBook, Finding } from './facts.ts';
import type { EngineHint } from './hints.ts';
import type { InputStats, ReadLimits } from './ingest/lines.ts';
import { LineSkimmer } from './ingest/skim.ts';
import { factsFor, type PlaybookMatch, rankPlaybooks } from './match.ts';
import type { Action, Cause, Playbook } from './playbook/schema.ts';
import { fill } from './templates.ts';

export type { StageFailure } from './collector.ts';

// In a file of their own: the collector needs them too, and importing this file from there made a cycle.
export { ENGINE_HINTS, type EngineHint } from './hints.ts';

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
  /**
   * Blocks of a large input read elsewhere (worker threads) and merged in input order: the same
   * result as reading them here, as long as the offload reads them with the same extractors.
   */
  blocks?: BlockOptions;
}

/**
 * Below this confidence a diagnosis rests on weak facts only, and says so first: which facts they
 * are and what would confirm them (the playbook's `why` of each signal).
 */
export const WEAK_CONFIDENCE = 0.5;

/** Most evidence lines a diagnosis cites: enough to check it, short enough to read. */
const MAX_EVIDENCE = 8;

/** The first cause (in the playbook's order) whose facts are present. */
function causeOf(book: FactBook, playbook: Playbook): { cause: Cause; facts: Fact[] } | undefined {
  for (const cause of playbook.causes) {
    const facts = cause.when.flatMap((ref) => factsFor(book, ref));
    if (facts.length > 0) return { cause, facts };
  }
  return undefined;
}

/** The diagnosis' title: the first of the playbook's `titles` whose facts are present, else its own. */
function titleOf(book: FactBook, playbook: Playbook): string {
  const found = playbook.titles.find((t) => t.when.some((ref) => factsFor(book, ref).length > 0));
  return found?.title ?? playbook.title;
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
    title: titleOf(book, playbook),
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
  /** What to draw of a recognised dump (a GC log's heap, samples against the limit), when it has one. */
  chart?: ChartData;
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
  const reader = options.blocks
    ? new BlockReader(source, collector, stats, options, options.blocks)
    : new LineSkimmer(source, collector, stats, options);
  await reader.read(bytes);
  return concluded(collector, playbooks);
}

function concluded(collector: FactCollector, playbooks: readonly Playbook[]): LinesDiagnosis {
  collector.finish();
  const chart = collector.chart();
  return {
    diagnoses: diagnoseFacts(collector.book, playbooks),
    findings: collector.book.findings(),
    failures: collector.failures(),
    ...(chart ? { chart } : {}),
  };
}
