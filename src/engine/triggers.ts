import type { Extractor } from './extractors/types.ts';
import { isScannable, LiteralScanner } from './ingest/literal-scan.ts';

// The literal prefilter: one scan per line for every extractor's triggers.

/**
 * A global, case-insensitive regex matching any of the literals, longest first: at a given position
 * it matches the longest trigger there, and every shorter trigger at that position is a prefix of it.
 */
export function triggerPattern(literals: readonly string[]): RegExp {
  if (literals.length === 0) return /(?!)/g;
  const escaped = [...literals].sort((a, b) => b.length - a.length || a.localeCompare(b)).map(escapeLiteral);
  return new RegExp(escaped.join('|'), 'gi');
}

function escapeLiteral(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const TESTS = new WeakMap<readonly string[], RegExp>();

/**
 * A non-global case-insensitive test for any of the literals, built once per list. Non-Unicode `i`
 * folds ASCII letters only, as the engine's byte scan does, so both agree on every line.
 */
export function triggerTest(literals: readonly string[]): RegExp {
  let test = TESTS.get(literals);
  if (!test) {
    test = literals.length === 0 ? /(?!)/ : new RegExp(literals.map(escapeLiteral).join('|'), 'i');
    TESTS.set(literals, test);
  }
  return test;
}

/** For each literal, the extractors having a trigger inside it (so one match opens all of them). */
export function triggerOwners(
  literals: readonly string[],
  extractors: readonly Extractor[],
): Map<string, number[]> {
  const owners = new Map<string, number[]>();
  for (const literal of literals) {
    const indexes = extractors.flatMap((e, i) =>
      e.triggers.some((t) => literal.includes(t.toLowerCase())) ? [i] : [],
    );
    owners.set(literal, indexes);
  }
  return owners;
}

/**
 * Which extractors a line opens: those with a trigger anywhere in it. With ASCII triggers (all of
 * the shipped ones) a LiteralScanner finds them, several times faster than the alternation; other
 * triggers fall back to the regex, which gives the same sets.
 */
export class TriggerIndex {
  readonly literals: readonly string[];
  readonly scannable: boolean;
  private readonly scanner?: LiteralScanner;
  /** For each literal id of the scanner, the extractors having exactly that trigger. */
  private readonly byId: readonly (readonly number[])[] = [];
  private readonly pattern: RegExp;
  private readonly owners: ReadonlyMap<string, readonly number[]>;

  constructor(extractors: readonly Extractor[]) {
    this.literals = [...new Set(extractors.flatMap((e) => e.triggers.map((t) => t.toLowerCase())))];
    this.scannable = this.literals.every(isScannable);
    this.pattern = triggerPattern(this.literals);
    this.owners = triggerOwners(this.literals, extractors);
    if (!this.scannable) return;
    const scanner = new LiteralScanner(this.literals);
    this.scanner = scanner;
    this.byId = scanner.literals.map((literal) =>
      extractors.flatMap((e, i) => (e.triggers.some((t) => t.toLowerCase() === literal) ? [i] : [])),
    );
  }

  /** Indexes of the extractors whose triggers occur in the line. */
  opened(line: string): Set<number> {
    const opened = new Set<number>();
    if (this.scanner) {
      this.scanner.each(line, (id) => {
        for (const index of this.byId[id] ?? []) opened.add(index);
      });
      return opened;
    }
    // Every start position is tried: the longest trigger there, and through `owners` all it holds.
    this.pattern.lastIndex = 0;
    for (let match = this.pattern.exec(line); match; match = this.pattern.exec(line)) {
      for (const index of this.owners.get(match[0].toLowerCase()) ?? []) opened.add(index);
      this.pattern.lastIndex = match.index + 1;
    }
    return opened;
  }
}
