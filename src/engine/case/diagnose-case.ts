import { FactCollector } from '../collector.ts';
import { type Diagnosis, diagnoseFacts } from '../diagnose.ts';
import { FactBook } from '../facts.ts';
import type { EngineHint } from '../hints.ts';
import type { Playbook } from '../playbook/schema.ts';
import type { CaseInput, Cite } from './join.ts';

/** A line a case's diagnosis cites: which input, which line there. */
export interface CaseEvidence extends Cite {
  text: string;
}

/** A diagnosis over several inputs: the contract's diagnosis with every line named `input:line`. */
export interface CaseDiagnosis extends Omit<Diagnosis, 'evidence'> {
  evidence: CaseEvidence[];
}

/** Where each input's lines start in the one numbering of the case's fact set. */
interface LineMap {
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
  return diagnoseFacts(book, playbooks).map((diagnosis) => ({
    ...diagnosis,
    evidence: diagnosis.evidence.map(({ line, text }) => ({ ...citeOf(map, line), text })),
    facts: citedFacts(diagnosis.facts, map),
  }));
}
