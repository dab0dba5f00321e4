import { z } from 'zod';
import { FactRefSchema } from '../../engine/playbook/schema.ts';
import { WalkthroughInvalidEventError } from '../../errors.ts';
import { firstBranch } from '../conditions.ts';
import {
  formatMeasurement,
  MEASUREMENT_UNITS,
  rangeText,
  readMeasurement,
  UNIT_HINT,
  UNIT_RANGE,
} from '../measurement-units.ts';
import { defineStepKind, type Outcome, type ProcedureProblem, type StepContext } from './step-kind.ts';
import { edgeIf, fromText, matchingFacts, refText, skipTo, wrongEvent } from './step-rules.ts';
import {
  BranchSchema,
  baseStep,
  FetchedFromSchema,
  FetchSchema,
  fetchedLine,
  stepId,
} from './step-schemas.ts';

/**
 * Where a measurement's number may already be known, so the step is answered without asking:
 * `{ value }` names a known value (a diagnosis value such as `config.spark.executor.memory`, or an
 * earlier step's `<step-id>.<key>`); `{ fact, key }` takes a number from a fact's values. The number is
 * used as it is, in the step's unit.
 */
const MeasurementPrefillSchema = z.union([
  z.strictObject({ value: z.string().min(1) }),
  z.strictObject({ fact: FactRefSchema, key: z.string().min(1) }),
]);

/**
 * The unit the metric really has, as its tool shows it (answers and thresholds are in it); a
 * missing or unknown one is an error that says what to write.
 */
const UnitSchema = z.enum(MEASUREMENT_UNITS, {
  error: () =>
    `a measurement declares the unit its metric really has, as the tool shows it: one of ${MEASUREMENT_UNITS.join(', ')} (ratio is a share from 0 to 1, as CloudWatch's glue.driver.jvm.heap.usage; percent a share from 0 to 100, as jstat's O column; multiple a "times larger" figure such as Max / Median)`,
});

/** A number with a unit, branching on thresholds. */
const MeasurementStepSchema = z.strictObject({
  ...baseStep,
  kind: z.literal('measurement'),
  unit: UnitSchema,
  min: z.number().optional(),
  max: z.number().optional(),
  branches: z.array(BranchSchema).default([]),
  otherwise: stepId,
  /** Tried in order; the first that gives a number answers the step. */
  prefill: z.array(MeasurementPrefillSchema).optional(),
  /** Where to go when the user cannot take this measurement; without it, skipping is not offered. */
  on_skip: stepId.optional(),
  /** Where a configured connector can fetch the number: the resources and the parsed `value` it is. */
  fetch: FetchSchema.optional(),
});

type MeasurementStep = z.infer<typeof MeasurementStepSchema>;

const MeasurementAnswerSchema = z.strictObject({
  kind: z.literal('measurement'),
  value: z.number().nullable(),
  unit: z.string(),
  /** Set when a connector fetched the number instead of a person typing it. */
  fetched: FetchedFromSchema.optional(),
});

type MeasurementAnswer = z.infer<typeof MeasurementAnswerSchema>;

const EXPECTS = 'give a number';

/** Where a measurement leads for a value, with the branch's reason. */
function outcomeFor(step: MeasurementStep, value: number, ctx: StepContext): Outcome<MeasurementAnswer> {
  const branch = firstBranch(step.branches, { ...ctx.values, value });
  return {
    answer: { kind: 'measurement', value, unit: step.unit },
    next: branch?.next ?? step.otherwise,
    because: branch?.because,
  };
}

/** The step's bounds within its unit's own range: a ratio never passes 1, whatever the step says. */
function bounds(step: MeasurementStep): { min: number; max: number } {
  const own = UNIT_RANGE[step.unit];
  return {
    min: Math.max(step.min ?? Number.NEGATIVE_INFINITY, own.min),
    max: Math.min(step.max ?? Number.POSITIVE_INFINITY, own.max ?? Number.POSITIVE_INFINITY),
  };
}

function checked(step: MeasurementStep, value: number): number {
  const { min, max } = bounds(step);
  if (Number.isFinite(value) && value >= min && value <= max) return value;
  const range = rangeText(step.unit, min, max === Number.POSITIVE_INFINITY ? undefined : max);
  throw new WalkthroughInvalidEventError(
    `${formatMeasurement(value, step.unit)} is outside ${range} for "${step.title}"; check the figure and try again.`,
  );
}

function known(step: MeasurementStep, ctx: StepContext): { value: number; source: string } | undefined {
  for (const p of step.prefill ?? []) {
    if ('value' in p) {
      const text = ctx.values[p.value];
      const value = text === undefined ? Number.NaN : Number(text);
      if (Number.isFinite(value)) return { value, source: p.value };
      continue;
    }
    for (const fact of matchingFacts(ctx.facts, p.fact)) {
      const value = fact.values?.[p.key];
      if (typeof value === 'number')
        return { value, source: `${refText(p.fact)} ${p.key}${fromText(ctx.values, p.fact)}` };
    }
  }
  return undefined;
}

/** The step's own bounds, where they are narrower than its unit's, as the console shows them. */
function boundsText(step: MeasurementStep): string {
  const own = UNIT_RANGE[step.unit];
  const min = Math.max(step.min ?? own.min, own.min);
  const max = step.max === undefined ? own.max : Math.min(step.max, own.max ?? step.max);
  return min === own.min && max === own.max ? '' : rangeText(step.unit, min, max);
}

/**
 * A measurement's bounds and thresholds lie inside its unit's range: a ratio step with a threshold of
 * 80 was written in percent, and no answer would ever reach it.
 */
function lintUnits(step: MeasurementStep, at: string): ProcedureProblem[] {
  const problems: ProcedureProblem[] = [];
  const range = UNIT_RANGE[step.unit];
  const outside = (n: number) => n < range.min || (range.max !== undefined && n > range.max);
  const says = `outside the range of ${step.unit} (${rangeText(step.unit)}); write it in the unit the metric shows`;
  for (const field of ['min', 'max'] as const) {
    const n = step[field];
    if (n !== undefined && outside(n))
      problems.push({ path: `${at}.${field}`, message: `${field} ${n} is ${says}` });
  }
  step.branches.forEach((b, j) => {
    b.when.forEach((c, k) => {
      if (c.value === 'value' && typeof c.to === 'number' && outside(c.to))
        problems.push({
          path: `${at}.branches[${j}].when[${k}].to`,
          message: `threshold ${c.to} is ${says}`,
        });
    });
  });
  for (const [path, source] of [
    [`${at}.fetch`, step.fetch],
    [`${at}.fetch.or`, step.fetch?.or],
  ] as const)
    if (source && !source.value)
      problems.push({
        path: `${path}.value`,
        message: "a measurement's fetch names the parsed value that is its number, e.g. value: heapUsagePeak",
      });
  return problems;
}

export const measurement = defineStepKind({
  schema: MeasurementStepSchema,
  answerSchema: MeasurementAnswerSchema,
})({
  expects: EXPECTS,
  input: 'value',
  edges(step) {
    // An answered measurement is known as `<step-id>` and, with its unit, `<step-id>.shown`.
    const answered = [step.id, `${step.id}.shown`];
    return [
      ...step.branches.map((b, i) => ({
        field: `branches[${i}].next`,
        target: b.next,
        label: `branch ${i}`,
        learns: [...answered, ...b.when.filter((c) => c.value !== 'value').map((c) => c.value)],
      })),
      { field: 'otherwise', target: step.otherwise, label: 'otherwise', learns: answered },
      ...edgeIf('on_skip', step.on_skip, 'skip', []),
    ];
  },
  lint: lintUnits,
  answer(step, event, ctx) {
    if (event.type === 'skip')
      return {
        outcome: {
          answer: { kind: 'measurement', value: null, unit: step.unit },
          next: skipTo(step, EXPECTS),
        },
      };
    if (event.type !== 'measure') throw wrongEvent(step, EXPECTS, event);
    const outcome = outcomeFor(step, checked(step, event.value), ctx);
    if (!event.from) return { outcome };
    return { outcome: { ...outcome, answer: { ...outcome.answer, fetched: event.from } } };
  },
  prefill(step, ctx) {
    const found = known(step, ctx);
    if (!found) return undefined;
    const outcome = outcomeFor(step, found.value, ctx);
    const reason = `known from ${found.source}`;
    return { ...outcome, because: outcome.because ? `${reason}; ${outcome.because}` : reason };
  },
  options: (step) =>
    step.on_skip ? [{ label: 'Skip: I cannot get this', event: { type: 'skip', step: step.id } }] : [],
  details: (step) => ({
    unit: step.unit,
    min: step.min,
    max: step.max,
    hint: UNIT_HINT[step.unit],
    bounds: boundsText(step),
  }),
  answerText: (answer) => (answer.value === null ? 'skipped' : formatMeasurement(answer.value, answer.unit)),
  valueText: (answer) => (answer.value === null ? 'skipped' : String(answer.value)),
  transcript: (answer) => (answer.fetched ? [fetchedLine(answer.fetched)] : []),
  readText(view, text) {
    // "0.85", "85%", "3.5 GiB", "7.8 min / 1.2 h": converted to the step's unit, or refused with why.
    const read = readMeasurement(text, view.unit ?? 'count');
    if (!read.ok) return { refusal: read.error };
    return { event: { type: 'measure', value: read.value, step: view.step }, shown: read.shown };
  },
  scripted(step, answer) {
    if (typeof answer !== 'string') return undefined;
    // Text is read as a person typed it (`0.93`, `85%`, `7.8 min / 1.2 h`), as the console reads it.
    const read = readMeasurement(answer, step.unit);
    if (!read.ok) throw new Error(`step "${step.id}": ${read.error}`);
    return { type: 'measure', value: read.value };
  },
});
