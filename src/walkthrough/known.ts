import type { Answer, Finding, WalkthroughRecord } from './record.ts';
import { stepKind } from './steps/registry.ts';
import type { StepContext } from './steps/step-kind.ts';

/** An answer as one short string: what templates show for `{{step-id}}` and what a transcript prints. */
export function answerText(answer: Answer): string {
  return stepKind(answer.kind).answerText(answer);
}

/**
 * Every value known so far, for templates and measurement prefill: the diagnosis values, then per
 * answered step `<step-id>` (its answer; a measurement's bare number) and `<step-id>.shown` (the
 * answer with its unit, `85% (ratio 0.85)`), and for pastes `<step-id>.<key>` (each parsed value).
 */
export function knownValues(record: WalkthroughRecord): Record<string, string> {
  const values: Record<string, string> = { ...record.values };
  for (const entry of record.path) {
    const kind = stepKind(entry.answer.kind);
    const shown = kind.answerText(entry.answer);
    values[entry.step] = kind.valueText?.(entry.answer) ?? shown;
    values[`${entry.step}.shown`] = shown;
    for (const [key, value] of Object.entries(kind.values?.(entry.answer) ?? {}))
      values[`${entry.step}.${key}`] = value;
  }
  return values;
}

/** The facts of the diagnosis plus those the answers added (parsed pastes). */
export function knownFacts(record: WalkthroughRecord): Finding[] {
  const facts = [...record.facts];
  for (const entry of record.path) facts.push(...(stepKind(entry.answer.kind).facts?.(entry.answer) ?? []));
  return facts;
}

/** What a step kind sees of a walkthrough: known values and facts, the rounds, earlier answers' lines. */
export function stepContext(record: WalkthroughRecord): StepContext {
  return {
    values: knownValues(record),
    facts: knownFacts(record),
    rounds: record.rounds,
    linesOf(stepId) {
      const entry = record.path.find((e) => e.step === stepId);
      return entry ? (stepKind(entry.answer.kind).lines?.(entry.answer) ?? []) : [];
    },
    linesWanted: (stepId) => record.procedure.steps.some((s) => stepKind(s.kind).linesFrom?.(s) === stepId),
  };
}
