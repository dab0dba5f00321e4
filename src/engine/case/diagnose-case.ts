import { FactCollector } from '../collector.ts';
import { type Diagnosis, diagnoseFacts } from '../diagnose.ts';
import { type BookContents, FactBook } from '../facts.ts';
import type { EngineHint } from '../hints.ts';
import type { Playbook } from '../playbook/schema.ts';
import type { CaseInput, Cite } from './join.ts';
import type { RefinedBy } from './refine/refined-by.ts';

/** A line a case's diagnosis cites: which input, which line there. */
export interface CaseEvidence extends Cite {
  text: string;
}

/** A diagnosis over several inputs: the contract's diagnosis with every line named `input:line`. */
export interface CaseDiagnosis extends Omit<Diagnosis, 'evidence'> {
  evidence: CaseEvidence[];
  /** The input of the same process whose verdict decided the cause, when one did (refine/rules.ts). */
  refinedBy?: RefinedBy;
}

/** Where each input's lines start in the one numbering of the case's fact set. */
export interface LineMap {
  names: string[];
  starts: number[];
}

function citeOf(map: LineMap, line: number): Cite {
  let at = 0;
  for (let i = 0; i < map.starts.length; i++) if ((map.starts[i] ?? 0) < line) at = i;
  return { input: map.names[at] ?? '', line: line - (map.starts[at] ?? 0) };
}

/**
 * One fact set for several inputs: each input is read by its own collector (its own parser detects
 * its own format: a pmap stays a pmap), then every book is taken into one, numbered one after another.
 */
function oneBook(inputs: readonly CaseInput[], engine?: EngineHint): { book: FactBook; map: LineMap } {
  const book = new FactBook();
  const map: LineMap = { names: [], starts: [] };
  let offset = 0;
  inputs.forEach((input, i) => {
    // The user's --engine is a fact of the case, given once (line 0 of the first input).
    const collector = new FactCollector(undefined, i === 0 ? engine : undefined);
    collector.push(input.lines);
    collector.finish();
    book.absorb(collector.book.contents(), offset);
    map.names.push(input.name);
    map.starts.push(offset);
    offset += input.lines.length;
  });
  return { book, map };
}

/** Signal lines as `input:line`, so a reader can find each in its file. */
function citedFacts(facts: Record<string, unknown>, map: LineMap): Record<string, unknown> {
  const signals = (facts.signals ?? {}) as Record<string, { lines?: number[] }>;
  const cited = Object.fromEntries(
    Object.entries(signals).map(([kind, { lines = [], ...rest }]) => [
      kind,
      { ...rest, lines: lines.map((l) => (l > 0 ? formatCite(citeOf(map, l)) : 'given')) },
    ]),
  );
  return { ...facts, signals: cited };
}

export function formatCite({ input, line }: Cite): string {
  return line > 0 ? `${input}:${line}` : input;
}

/** The case book's diagnoses, each evidence line and signal line named `input:line`. */
function citedDiagnoses(book: FactBook, map: LineMap, playbooks: readonly Playbook[]): CaseDiagnosis[] {
  return diagnoseFacts(book, playbooks).map((diagnosis) => ({
    ...diagnosis,
    evidence: diagnosis.evidence.map(({ line, text }) => ({ ...citeOf(map, line), text })),
    facts: citedFacts(diagnosis.facts, map),
  }));
}

/**
 * Diagnoses the inputs of one case group as one fact set: the playbooks rank facts from all of them
 * (a driver's lost executor with a NodeManager's kill line), and each evidence line names its input.
 * Pure: the same inputs in the same order give the same result.
 */
export function diagnoseCaseGroup(
  inputs: readonly CaseInput[],
  playbooks: readonly Playbook[],
  engine?: EngineHint,
): CaseDiagnosis[] {
  const { book, map } = oneBook(inputs, engine);
  return citedDiagnoses(book, map, playbooks);
}

/** The facts one input gave, read alone, and how many lines it had: what a stored case keeps. */
export interface InputBook {
  name: string;
  lines: number;
  book: BookContents;
}

/**
 * The case's one fact set built from stored books instead of the text: the engine hint first (as
 * line 0 of the first input), then each input's book numbered after the lines of the ones before.
 */
export function combineBooks(
  inputs: readonly InputBook[],
  engine?: EngineHint,
): { book: FactBook; map: LineMap } {
  const book = new FactCollector(undefined, engine).book;
  const map: LineMap = { names: [], starts: [] };
  let offset = 0;
  for (const input of inputs) {
    book.absorb(input.book, offset);
    map.names.push(input.name);
    map.starts.push(offset);
    offset += input.lines;
  }
  return { book, map };
}

/**
 * Diagnoses one case group from its inputs' stored books, without their text: the same result as
 * diagnoseCaseGroup over the inputs the books were read from (test/engine/case/books.test.ts).
 */
export function diagnoseBookGroup(
  inputs: readonly InputBook[],
  playbooks: readonly Playbook[],
  engine?: EngineHint,
): CaseDiagnosis[] {
  const { book, map } = combineBooks(inputs, engine);
  return citedDiagnoses(book, map, playbooks);
}
