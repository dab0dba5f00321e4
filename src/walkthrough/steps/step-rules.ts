import { type Fact, FactBook } from '../../engine/facts.ts';
import { factsFor } from '../../engine/match.ts';
import type { FactRef } from '../../engine/playbook/schema.ts';
import { fill, placeholders } from '../../engine/templates.ts';
import { WalkthroughInvalidEventError } from '../../errors.ts';
import type { AnswerEvent, BaseStep, StepEdge } from './step-kind.ts';
import type { Finding } from './step-schemas.ts';

// Small rules the kinds share: refusing an event, where a skip leads, optional edges, filling
// templates and matching facts as the engine does.

/** The refusal for an event a step does not take. */
export function wrongEvent(
  step: BaseStep,
  expects: string,
  event: AnswerEvent,
): WalkthroughInvalidEventError {
  return new WalkthroughInvalidEventError(
    `step "${step.title}" is a ${step.kind} step: ${expects} (got "${event.type}").`,
  );
}

/** Where skipping leads; a step without `on_skip` cannot be skipped. */
export function skipTo(step: BaseStep & { on_skip?: string }, expects: string): string {
  if (step.on_skip) return step.on_skip;
  throw new WalkthroughInvalidEventError(`step "${step.title}" cannot be skipped: ${expects}.`);
}

/** An edge for an optional field: none when the field is unset. */
export function edgeIf(
  field: string,
  target: string | undefined,
  label: string,
  learns: string[],
): StepEdge[] {
  return target === undefined ? [] : [{ field, target, label, learns }];
}

/**
 * The edges of a step whose branches test the values its answer gives (a paste's parsed output, a heap
 * dump's suspects): later steps see each as `<step-id>.<key>`; then `otherwise`, then `on_skip`.
 */
export function valueBranchEdges(step: {
  id: string;
  branches: readonly { next: string; when: readonly { value: string }[] }[];
  otherwise: string;
  on_skip?: string | undefined;
}): StepEdge[] {
  const answered = [step.id];
  return [
    ...step.branches.map((b, i) => ({
      field: `branches[${i}].next`,
      target: b.next,
      label: `branch ${i}`,
      learns: [...answered, ...b.when.filter((c) => c.value !== 'value').map((c) => `${step.id}.${c.value}`)],
    })),
    { field: 'otherwise', target: step.otherwise, label: 'otherwise', learns: answered },
    ...edgeIf('on_skip', step.on_skip, 'skip', []),
  ];
}

/**
 * Fills `{{name}}` from what is known; a name with no value yet shows as `<name unknown>` so the
 * sentence still reads and the gap is visible.
 */
export function fillKnown(template: string, values: Readonly<Record<string, string>>): string {
  const complete: Record<string, string> = { ...values };
  for (const name of placeholders(template)) complete[name] ??= `<${name} unknown>`;
  return fill(template, complete) ?? template;
}

/** Facts meeting a playbook fact reference (`kind`, `prefix.*`, with `where`), as the engine matches them. */
export function matchingFacts(facts: readonly Finding[], ref: FactRef): Fact[] {
  const book = new FactBook();
  for (const f of facts) book.add({ kind: f.kind, values: f.values, line: 0, text: '' });
  return factsFor(book, ref);
}

/** A fact reference as a person reads it: `oom.java-heap` or `config (key=spark.driver.memory)`. */
/**
 * The value a walkthrough started from a case holds for each fact kind: the input that gave it
 * (`from.native.glibc-arenas` = `pmap.txt`), so a prefilled answer says which input answered it.
 */
export function fromKey(kind: string): string {
  return `from.${kind}`;
}

/** ` (from pmap.txt)` when a case's input gave the fact, else nothing. */
export function fromText(values: Readonly<Record<string, string>>, ref: FactRef): string {
  const input = values[fromKey(typeof ref === 'string' ? ref : ref.fact)];
  return input ? ` (from ${input})` : '';
}

export function refText(ref: FactRef): string {
  if (typeof ref === 'string') return ref;
  const where = Object.entries(ref.where ?? {}).map(([k, v]) => `${k}=${v}`);
  return where.length > 0 ? `${ref.fact} (${where.join(', ')})` : ref.fact;
}
