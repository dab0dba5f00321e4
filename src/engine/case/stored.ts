import { FactCollector } from '../collector.ts';
import { type BookContents, FactBook, type FactValue, type Finding } from '../facts.ts';
import type { EngineHint } from '../hints.ts';
import type { InputStats } from '../ingest/lines.ts';
import { combineBooks } from './diagnose-case.ts';
import { type CaseInput, type InputKeys, KeyReader, readKeys } from './join.ts';
import { type TimeSpan, TimeSpanReader } from './time.ts';

/**
 * What a case keeps of one input instead of its text: its name and size, the join keys it names
 * (with the line of each) and its facts (the collector's book: a few facts per kind, each with the
 * text of its line, which is what a diagnosis cites).
 */
export interface StoredInput {
  name: string;
  bytes: number;
  lines: number;
  keys: InputKeys;
  book: BookContents;
  /** The first and last times its lines print, when they print any: a case lines its inputs up by them. */
  time?: TimeSpan;
}

/**
 * Reads an input into what a case stores, batch by batch as its lines arrive (pure): its keys, its
 * facts (on their own, no engine hint) and its times. No line is held once read: what is kept is
 * bounded by MAX_KEYS_PER_INPUT and the book's few facts per kind, whatever the input's size.
 */
export class StoredInputReader {
  private readonly keys: KeyReader;
  private readonly time = new TimeSpanReader();
  private readonly facts = new FactCollector();
  private lines = 0;

  constructor(private readonly name: string) {
    this.keys = new KeyReader(name);
  }

  push(batch: readonly string[]): void {
    this.facts.push(batch);
    for (const line of batch) {
      this.lines++;
      this.keys.push(line, this.lines);
      this.time.push(line);
    }
  }

  /** What the case keeps of the lines pushed, `bytes` being the input's size. */
  finish(bytes: number): StoredInput {
    this.facts.finish();
    const time = this.time.span();
    return {
      name: this.name,
      bytes,
      lines: this.lines,
      keys: this.keys.keys(),
      book: this.facts.book.contents(),
      ...(time ? { time } : {}),
    };
  }
}

/** Reads one input's lines into what a case stores (pure): its keys and its facts, read on their own. */
export function storedInput(input: CaseInput & { stats: InputStats }): StoredInput {
  const reader = new StoredInputReader(input.name);
  reader.push(input.lines);
  return reader.finish(input.stats.bytes);
}

/**
 * The same input under another name (a second `executor.log` in a thread): keys only its own lines
 * can join by (a bare executor id, `<name>#...`) carry the name, so they move with it.
 */
export function renamed(input: StoredInput, name: string): StoredInput {
  if (name === input.name) return input;
  const scope = `${input.name}#`;
  const id = (old: string) => (old.startsWith(scope) ? `${name}#${old.slice(scope.length)}` : old);
  return {
    ...input,
    name,
    keys: {
      first: input.keys.first.map((k) => ({ ...k, id: id(k.id) })),
      links: input.keys.links.map(([a, b]) => [id(a), id(b)]),
    },
  };
}

/**
 * Every fact the named inputs showed together, without lines: what a walkthrough started from the
 * case knows (the engine hint, when given, included).
 */
export function caseFindings(
  inputs: readonly StoredInput[],
  names: readonly string[],
  engine?: EngineHint,
): Finding[] {
  const wanted = new Set(names);
  return combineBooks(
    inputs.filter((input) => wanted.has(input.name)),
    engine,
  ).book.findings();
}

/**
 * What a case keeps of an input that is not text but was read into evidence lines and facts (a heap
 * dump: src/engine/heap's evidence): its keys read from those lines and its name, its facts as given.
 */
export function storedEvidence(
  input: { name: string; bytes: number; lines: readonly string[] },
  facts: readonly { kind: string; values?: Record<string, FactValue>; line: number }[],
): StoredInput {
  const book = new FactBook();
  for (const fact of facts)
    book.add({
      ...fact,
      text: input.lines[fact.line - 1] ?? '',
      ...(fact.values ? { values: fact.values } : {}),
    });
  return {
    name: input.name,
    bytes: input.bytes,
    lines: input.lines.length,
    keys: readKeys({ name: input.name, lines: input.lines }),
    book: book.contents(),
  };
}
