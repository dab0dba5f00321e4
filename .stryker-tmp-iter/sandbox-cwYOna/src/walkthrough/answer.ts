// @ts-nocheck
import type { ParsedOutput } from '../engine/parsers/types.ts';
import { WalkthroughInvalidEventError } from '../errors.ts';
import { bisectionState, MAX_CANDIDATES } from './bisection.ts';
import { firstBranch } from './conditions.ts';
import type { WalkthroughEvent } from './events.ts';
import { formatMeasurement, rangeText, UNIT_RANGE } from './measure.ts';
import { measurementOutcome, type Outcome } from './prefill.ts';
import type { Step } from './procedure-schema.ts';
import type { Round, WalkthroughRecord } from './record.ts';

/** Parses pasted output with a named parser; throws ParseFailedError saying what to run. */
export type ParseFn = (parserId: string, text: string) => ParsedOutput;

/** What an answer does: finish the step (an outcome), or add a bisection round and stay. */
export type Effect = { outcome: Outcome } | { round: Round };

type AnswerEvent = Exclude<WalkthroughEvent, { type: 'start' | 'back' | 'abort' | 'thread' }>;

const EXPECTS: Readonly<Record<Step['kind'], string>> = {
  instruction: 'answer done, skip or can’t',
  question: 'choose one of its answers',
  measurement: 'give a number',
  paste: 'paste the command output',
  bisection: 'say whether the symptom showed (leak or no leak)',
  conclusion: 'nothing: the walkthrough is finished',
};

function wrongEvent(step: Step, event: AnswerEvent): WalkthroughInvalidEventError {
  return new WalkthroughInvalidEventError(
    `step "${step.title}" is a ${step.kind} step: ${EXPECTS[step.kind]} (got "${event.type}").`,
  );
}

function skipTo(step: Step & { on_skip?: string }): string {
  if (step.on_skip) return step.on_skip;
  throw new WalkthroughInvalidEventError(`step "${step.title}" cannot be skipped: ${EXPECTS[step.kind]}.`);
}

function instruction(step: Extract<Step, { kind: 'instruction' }>, event: AnswerEvent): Outcome {
  if (event.type === 'done') return { answer: { kind: 'instruction', outcome: 'done' }, next: step.next };
  if (event.type === 'skip')
    return { answer: { kind: 'instruction', outcome: 'skip' }, next: step.on_skip ?? step.next };
  if (event.type === 'cant') {
    if (!step.on_cant)
      throw new WalkthroughInvalidEventError(
        `step "${step.title}" has no way around it: carry it out and answer done, or skip it.`,
      );
    return { answer: { kind: 'instruction', outcome: 'cant' }, next: step.on_cant };
  }
  throw wrongEvent(step, event);
}

function question(step: Extract<Step, { kind: 'question' }>, event: AnswerEvent): Outcome {
  if (event.type !== 'choose') throw wrongEvent(step, event);
  const answer = step.answers.find((a) => a.id === event.answer);
  if (!answer) {
    const ids = step.answers.map((a) => a.id).join(', ');
    throw new WalkthroughInvalidEventError(
      `"${event.answer}" is not an answer to "${step.title}"; choose one of ${ids}.`,
    );
  }
  return { answer: { kind: 'question', answer: answer.id, label: answer.label }, next: answer.next };
}

function measurement(
  record: WalkthroughRecord,
  step: Extract<Step, { kind: 'measurement' }>,
  event: AnswerEvent,
): Outcome {
  if (event.type === 'skip')
    return { answer: { kind: 'measurement', value: null, unit: step.unit }, next: skipTo(step) };
  if (event.type !== 'measure') throw wrongEvent(step, event);
  const { value } = event;
  // The unit's own range holds even where the step sets none: a ratio never passes 1.
  const min = Math.max(step.min ?? Number.NEGATIVE_INFINITY, UNIT_RANGE[step.unit].min);
  const max = Math.min(
    step.max ?? Number.POSITIVE_INFINITY,
    UNIT_RANGE[step.unit].max ?? Number.POSITIVE_INFINITY,
  );
  if (!Number.isFinite(value) || value < min || value > max) {
    const range = rangeText(step.unit, min, max === Number.POSITIVE_INFINITY ? undefined : max);
    throw new WalkthroughInvalidEventError(
      `${formatMeasurement(value, step.unit)} is outside ${range} for "${step.title}"; check the figure and try again.`,
    );
  }
  return measurementOutcome(record, step, value);
}

function usesLines(record: WalkthroughRecord, stepId: string): boolean {
  return record.procedure.steps.some(
    (s) => s.kind === 'bisection' && !Array.isArray(s.candidates) && s.candidates.from_step === stepId,
  );
}

function paste(
  record: WalkthroughRecord,
  step: Extract<Step, { kind: 'paste' }>,
  event: AnswerEvent,
  parse: ParseFn,
): Outcome {
  if (event.type === 'skip')
    return {
      answer: { kind: 'paste', format: null, summary: 'skipped', values: {}, facts: [] },
      next: skipTo(step),
    };
  if (event.type !== 'paste') throw wrongEvent(step, event);
  const parsed = parse(step.parser, event.text);
  const branch = firstBranch(step.branches, parsed.values);
  const lines = usesLines(record, step.id)
    ? [
        ...new Set(
          event.text
            .split(/\r?\n/)
            .map((l) => l.trim())
            .filter(Boolean),
        ),
      ].slice(0, MAX_CANDIDATES)
    : undefined;
  return {
    answer: {
      kind: 'paste',
      format: parsed.format,
      summary: parsed.summary,
      ...(parsed.verdict ? { verdict: parsed.verdict } : {}),
      values: parsed.values,
      facts: parsed.facts.map((f) =>
        f.values ? { kind: f.kind, values: { ...f.values } } : { kind: f.kind },
      ),
      ...(lines ? { lines } : {}),
    },
    next: branch?.next ?? step.otherwise,
    because: branch?.because,
  };
}

function bisection(
  record: WalkthroughRecord,
  step: Extract<Step, { kind: 'bisection' }>,
  event: AnswerEvent,
): Effect {
  if (event.type !== 'bisect') throw wrongEvent(step, event);
  const state = bisectionState(step, record);
  const round: Round = { tested: state.testWith, leak: event.leak };
  const remaining = event.leak ? state.testWith : state.holdBack;
  if (remaining.length > 1) return { round };
  const rounds = [...record.rounds, round];
  const found = remaining[0] ?? '(none)';
  return {
    outcome: {
      answer: { kind: 'bisection', found, rounds },
      next: step.found,
      because: `found in ${rounds.length} round${rounds.length === 1 ? '' : 's'}`,
    },
  };
}

/** What an answer event does at the current step; throws WalkthroughInvalidEventError or ParseFailedError. */
export function answerStep(
  record: WalkthroughRecord,
  step: Step,
  event: AnswerEvent,
  parse: ParseFn,
): Effect {
  switch (step.kind) {
    case 'instruction':
      return { outcome: instruction(step, event) };
    case 'question':
      return { outcome: question(step, event) };
    case 'measurement':
      return { outcome: measurement(record, step, event) };
    case 'paste':
      return { outcome: paste(record, step, event, parse) };
    case 'bisection':
      return bisection(record, step, event);
    case 'conclusion':
      throw wrongEvent(step, event);
  }
}
