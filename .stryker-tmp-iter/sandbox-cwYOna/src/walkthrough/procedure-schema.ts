// @ts-nocheck
import { z } from 'zod';
import { FactRefSchema } from '../engine/playbook/schema.ts';
import { MEASUREMENT_UNITS } from './measure.ts';

const stepId = z.string().regex(/^[a-z][a-z0-9-]*$/, 'a step id is lower-case words joined by "-"');

/** A comparison on a number or value: the answer of a measurement, or a value a parser found. */
export const ConditionSchema = z.strictObject({
  /** Which value: `value` (the measurement itself) or a key of the parsed output's values. */
  value: z.string().min(1).default('value'),
  op: z.enum(['lt', 'lte', 'gt', 'gte', 'eq', 'neq']),
  to: z.union([z.number(), z.string(), z.boolean()]),
});

/** Go to `next` when every condition holds. Branches are tried in order. */
export const BranchSchema = z.strictObject({
  when: z.array(ConditionSchema).min(1),
  next: stepId,
  /** Shown to the user with the branch taken, e.g. "Heap stays above 80%: the heap is too small." */
  because: z.string().min(1).optional(),
});

const base = {
  id: stepId,
  title: z.string().min(1).max(150),
  text: z.string().min(1),
};

/** Something to do; the user answers done, skip or can't. */
export const InstructionStepSchema = z.strictObject({
  ...base,
  kind: z.literal('instruction'),
  next: stepId,
  on_skip: stepId.optional(),
  on_cant: stepId.optional(),
});

/** A question with 2-6 answers, each leading somewhere. Facts from the diagnosis may answer it. */
export const QuestionStepSchema = z.strictObject({
  ...base,
  kind: z.literal('question'),
  answers: z
    .array(z.strictObject({ id: stepId, label: z.string().min(1).max(75), next: stepId }))
    .min(2)
    .max(6),
  prefill: z.array(z.strictObject({ fact: FactRefSchema, answer: stepId })).optional(),
});

/**
 * Where a measurement's number may already be known, so the step is answered without asking:
 * `{ value }` names a known value (a diagnosis value such as `config.spark.executor.memory`, or an
 * earlier step's `<step-id>.<key>`); `{ fact, key }` takes a number from a fact's values. The number is
 * used as it is, in the step's unit.
 */
export const MeasurementPrefillSchema = z.union([
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
export const MeasurementStepSchema = z.strictObject({
  ...base,
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
});

/** Command output to paste, parsed by a parser from src/engine/parsers, branching on what it found. */
export const PasteStepSchema = z.strictObject({
  ...base,
  kind: z.literal('paste'),
  parser: z.string().min(1),
  branches: z.array(BranchSchema).default([]),
  otherwise: stepId,
  /** Where to go when the user cannot get this output; without it, skipping is not offered. */
  on_skip: stepId.optional(),
});

/** Halves a list of candidates each round until one remains. */
export const BisectionStepSchema = z.strictObject({
  ...base,
  kind: z.literal('bisection'),
  /** The fixed list, or the lines the user pasted/typed at an earlier step. */
  candidates: z.union([z.array(z.string().min(1)).min(2), z.strictObject({ from_step: stepId })]),
  /** What "bad" means in this bisection, e.g. "memory keeps growing". */
  symptom: z.string().min(1),
  found: stepId,
});

/** The end: what was found, the fix (with computed values), and how to check it worked. */
export const ConclusionStepSchema = z.strictObject({
  ...base,
  kind: z.literal('conclusion'),
  fix: z.array(z.string().min(1)).min(1),
  verify: z.array(z.string().min(1)).min(1),
});

export const StepSchema = z.discriminatedUnion('kind', [
  InstructionStepSchema,
  QuestionStepSchema,
  MeasurementStepSchema,
  PasteStepSchema,
  BisectionStepSchema,
  ConclusionStepSchema,
]);

/** A playbook's step-by-step procedure: `playbooks/<id>/procedure.yaml`. */
export const ProcedureSchema = z.strictObject({
  start: stepId,
  steps: z.array(StepSchema).min(2),
});

export type Condition = z.infer<typeof ConditionSchema>;
export type Branch = z.infer<typeof BranchSchema>;
export type MeasurementPrefill = z.infer<typeof MeasurementPrefillSchema>;
export type Step = z.infer<typeof StepSchema>;
export type Procedure = z.infer<typeof ProcedureSchema>;
