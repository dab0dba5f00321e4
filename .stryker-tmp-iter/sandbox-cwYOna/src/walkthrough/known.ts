// @ts-nocheck
import { type Fact, FactBook } from '../engine/facts.ts';
import { factsFor } from '../engine/match.ts';
import type { FactRef } from '../engine/playbook/schema.ts';
import { formatMeasurement } from './measure.ts';
import type { Answer, Finding, WalkthroughRecord } from './record.ts';

/** An answer as one short string: what templates show for `{{step-id}}` and what a transcript prints. */
export function answerText(answer: Answer): string {
  switch (answer.kind) {
    case 'instruction':
      return { done: 'done', skip: 'skipped', cant: "can't" }[answer.outcome];
    case 'question':
      return answer.label;
    case 'measurement':
      return answer.value === null ? 'skipped' : formatMeasurement(answer.value, answer.unit);
    case 'paste':
      return answer.format === null ? 'skipped' : answer.summary;
    case 'bisection':
      return answer.found;
  }
}

/**
 * Every value known so far, for templates and measurement prefill: the diagnosis values, then per
 * answered step `<step-id>` (its answer; a measurement's bare number) and `<step-id>.shown` (the
 * answer with its unit, `85% (ratio 0.85)`), and for pastes `<step-id>.<key>` (each parsed value).
 */
export function knownValues(record: WalkthroughRecord): Record<string, string> {
  const values: Record<string, string> = { ...record.values };
  for (const entry of record.path) {
    const { answer } = entry;
    values[entry.step] =
      answer.kind === 'measurement' && answer.value !== null ? String(answer.value) : answerText(answer);
    values[`${entry.step}.shown`] = answerText(answer);
    if (answer.kind === 'paste')
      for (const [key, value] of Object.entries(answer.values))
        values[`${entry.step}.${key}`] = String(value);
  }
  return values;
}

/** The facts of the diagnosis plus those parsed from pastes so far. */
export function knownFacts(record: WalkthroughRecord): Finding[] {
  const facts = [...record.facts];
  for (const entry of record.path) if (entry.answer.kind === 'paste') facts.push(...entry.answer.facts);
  return facts;
}

/** Facts meeting a playbook fact reference (`kind`, `prefix.*`, with `where`), as the engine matches them. */
export function matchingFacts(facts: readonly Finding[], ref: FactRef): Fact[] {
  const book = new FactBook();
  for (const f of facts) book.add({ kind: f.kind, values: f.values, line: 0, text: '' });
  return factsFor(book, ref);
}

/** A fact reference as a person reads it: `oom.java-heap` or `config (key=spark.driver.memory)`. */
export function refText(ref: FactRef): string {
  if (typeof ref === 'string') return ref;
  const where = Object.entries(ref.where ?? {}).map(([k, v]) => `${k}=${v}`);
  return where.length > 0 ? `${ref.fact} (${where.join(', ')})` : ref.fact;
}
