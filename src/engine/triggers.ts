import type { Extractor } from './extractors/types.ts';

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
