import type { Fact, FactBook } from './facts.ts';
import type { FactRef, Playbook, Signal } from './playbook/schema.ts';

/** A signal that matched, with the facts that met it. */
export interface MatchedSignal {
  fact: string;
  weight: number;
  facts: Fact[];
  /** The playbook's reason for the signal; for a weak one, what would confirm it. */
  why?: string;
}

/** How a playbook matched an input: the confidence and everything it rests on. */
export interface PlaybookMatch {
  playbook: Playbook;
  confidence: number;
  signals: MatchedSignal[];
  /** Facts that met the playbook's `requires` groups. */
  required: Fact[];
}

type PlainRef = string | { fact: string; where?: Record<string, string | number | boolean> };

function refParts(ref: PlainRef): { fact: string; where?: Record<string, string | number | boolean> } {
  return typeof ref === 'string' ? { fact: ref } : ref;
}

/** Facts of a kind (or `prefix.*`) meeting every `where` condition. */
function plainFacts(book: FactBook, ref: PlainRef): Fact[] {
  const { fact, where } = refParts(ref);
  const facts = book.find(fact);
  if (!where) return facts;
  return facts.filter((f) => Object.entries(where).every(([key, value]) => f.values?.[key] === value));
}

/** Whether the facts a reference counts on beside itself are there (`with`) and absent (`unless`). */
function contextHolds(book: FactBook, ref: FactRef | Signal): boolean {
  if (typeof ref === 'string') return true;
  if (ref.with?.some((other) => plainFacts(book, other).length === 0)) return false;
  return !ref.unless?.some((other) => plainFacts(book, other).length > 0);
}

/** Facts meeting a reference: the kind (or `prefix.*`), every `where` condition, its `with` and `unless`. */
export function factsFor(book: FactBook, ref: FactRef | Signal): Fact[] {
  return contextHolds(book, ref) ? plainFacts(book, ref) : [];
}

/** True when the exclusion rules the playbook out: its fact is there, in its context. */
export function excludedBy(book: FactBook, exclude: FactRef): boolean {
  return factsFor(book, exclude).length > 0;
}

function requiredFacts(book: FactBook, playbook: Playbook): Fact[] | undefined {
  const found: Fact[] = [];
  for (const group of playbook.match.requires) {
    const met = group.any.flatMap((ref) => factsFor(book, ref));
    if (met.length === 0) return undefined;
    found.push(...met);
  }
  return found;
}

/**
 * Confidence is a noisy-OR of the positive signals (each an independent reason to believe), scaled
 * down by each negative one. Rounded to two decimals so output is stable and readable.
 */
export function confidenceOf(signals: readonly MatchedSignal[]): number {
  let disbelief = 1;
  let penalty = 1;
  for (const signal of signals) {
    if (signal.weight > 0) disbelief *= 1 - signal.weight;
    else penalty *= 1 + signal.weight;
  }
  const confidence = Math.min(0.99, (1 - disbelief) * penalty);
  return Math.round(confidence * 100) / 100;
}

/** Matches one playbook against the facts; undefined when it does not apply. */
export function matchPlaybook(book: FactBook, playbook: Playbook): PlaybookMatch | undefined {
  if (playbook.match.excludes.some((exclude) => excludedBy(book, exclude))) return undefined;
  const required = requiredFacts(book, playbook);
  if (!required) return undefined;
  const signals: MatchedSignal[] = [];
  for (const signal of playbook.match.signals) {
    const facts = factsFor(book, signal);
    if (facts.length > 0)
      signals.push({
        fact: signal.fact,
        weight: signal.weight,
        facts,
        ...(signal.why ? { why: signal.why } : {}),
      });
  }
  const confidence = confidenceOf(signals);
  if (confidence < playbook.match.min_confidence) return undefined;
  return { playbook, confidence, signals, required };
}

/** Every playbook that applies, best first; ties go to the more specific playbook, then by id. */
export function rankPlaybooks(book: FactBook, playbooks: readonly Playbook[]): PlaybookMatch[] {
  return playbooks
    .map((playbook) => matchPlaybook(book, playbook))
    .filter((m): m is PlaybookMatch => m !== undefined)
    .sort(
      (a, b) =>
        b.confidence - a.confidence ||
        b.playbook.match.requires.length - a.playbook.match.requires.length ||
        a.playbook.id.localeCompare(b.playbook.id),
    );
}
