import type { Extractor } from './extractors/types.ts';
import { isScannable, LiteralScanner, literalKey, parseLiteralKey } from './ingest/literal-scan.ts';

// The literal prefilter: which extractors a line opens, and the tests rules and markers gate on.

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

/** The scan's key of an extractor's trigger: its text, and where it must not follow (see literalKey). */
export function triggerKey(extractor: Extractor, trigger: string): string {
  return literalKey(trigger.toLowerCase(), extractor.notAfter?.[trigger] ?? '');
}

/** A case-insensitive test for one literal key, for triggers the byte scan cannot take. */
function keyTest(key: string): RegExp {
  const { text, notAfter } = parseLiteralKey(key);
  const before = notAfter === '' ? '' : `(?<![${notAfter.replace(/[\]\\^-]/g, '\\$&')}])`;
  return new RegExp(before + escapeLiteral(text), 'i');
}

/**
 * Which extractors a line opens: those with a trigger anywhere in it (and not right after a
 * character it must not follow). With ASCII triggers (all of the shipped ones) a LiteralScanner
 * finds them; other triggers fall back to one regex per trigger, which gives the same sets.
 */
export class TriggerIndex {
  /** Every trigger's key, each once: what the skimmer's scan looks for. */
  readonly literals: readonly string[];
  readonly scannable: boolean;
  /** Finds every trigger (when all are scannable). */
  readonly scanner?: LiteralScanner;
  /** For each literal id, the extractors having that trigger. */
  private readonly byId: readonly (readonly number[])[];
  private readonly tests: readonly RegExp[] = [];

  constructor(extractors: readonly Extractor[]) {
    // One pass over the triggers: each key's extractors, in registry order, each once.
    const byKey = new Map<string, number[]>();
    extractors.forEach((extractor, index) => {
      for (const trigger of extractor.triggers) {
        const key = triggerKey(extractor, trigger);
        const indexes = byKey.get(key) ?? [];
        if (indexes.at(-1) !== index) indexes.push(index);
        byKey.set(key, indexes);
      }
    });
    this.literals = [...byKey.keys()];
    this.scannable = this.literals.every((key) => isScannable(parseLiteralKey(key).text));
    this.byId = [...byKey.values()];
    if (this.scannable) this.scanner = new LiteralScanner(this.literals);
    else this.tests = this.literals.map(keyTest);
  }

  /**
   * Indexes of the extractors whose triggers occur in the line; with `live` (by literal id), only
   * those a live trigger opens.
   */
  opened(line: string, live?: readonly boolean[]): Set<number> {
    const opened = new Set<number>();
    const open = (id: number) => {
      if (live && !live[id]) return;
      for (const index of this.byId[id] ?? []) opened.add(index);
    };
    if (this.scanner) this.scanner.each(line, open);
    else
      this.tests.forEach((test, id) => {
        if (test.test(line)) open(id);
      });
    return opened;
  }

  /** The extractors the literals found opened: `found` indexes `idOf`, which gives their ids here. */
  openedBy(found: readonly number[], idOf: readonly number[]): Set<number> {
    const opened = new Set<number>();
    for (const at of found) for (const index of this.byId[idOf[at] as number] ?? []) opened.add(index);
    return opened;
  }
}
