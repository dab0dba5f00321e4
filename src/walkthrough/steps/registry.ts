import { z } from 'zod';
import { bisection } from './bisection.ts';
import { conclusion } from './conclusion.ts';
import { heapDump } from './heap-dump.ts';
import { instruction } from './instruction.ts';
import { measurement } from './measurement.ts';
import { paste } from './paste.ts';
import { question } from './question.ts';
import type { StepKind } from './step-kind.ts';

/**
 * Every step kind, as a literal map: adding one is one file in this folder and one line here, plus
 * its terminal view in src/cli/console/step-kinds.ts and its Slack view in src/slack/views/step-kinds.ts
 * (an entry each, beside the view; tsc fails until both exist). The procedure schema, the stored
 * answers, the state machine, the views, the lint, the transcript and the console and Slack read them
 * from this map, whose order is the order zod names the kinds in when a step's kind is unknown.
 */
export const STEP_KINDS = {
  instruction,
  question,
  measurement,
  paste,
  bisection,
  'heap-dump': heapDump,
  conclusion,
} as const;

type Kinds = typeof STEP_KINDS;
type SchemaOutput<T> = T extends z.ZodType<infer O> ? O : never;

/** A step of any kind, as procedure.yaml writes it. */
export type Step = { [K in keyof Kinds]: SchemaOutput<Kinds[K]['schema']> }[keyof Kinds];
/** An answered step's answer, of any kind that takes one. */
export type Answer = { [K in keyof Kinds]: SchemaOutput<NonNullable<Kinds[K]['answerSchema']>> }[keyof Kinds];
export type StepKindName = keyof Kinds;

const kinds: readonly StepKind<Step, Answer>[] = Object.values(STEP_KINDS);

type Union = Parameters<typeof z.discriminatedUnion>[1];

/** A step of any kind; the kinds' schemas in registry order, told apart by `kind`. */
export const StepSchema = z.discriminatedUnion(
  'kind',
  kinds.map((k) => k.schema) as unknown as Union,
) as unknown as z.ZodType<Step, unknown>;

/** What a step was answered with, by step kind. */
export const AnswerSchema = z.discriminatedUnion(
  'kind',
  kinds.flatMap((k) => (k.answerSchema ? [k.answerSchema] : [])) as unknown as Union,
) as unknown as z.ZodType<Answer, unknown>;

/** The kind of a step or answer, to call with that step or answer. */
export function stepKind(kind: string): StepKind<Step, Answer> {
  const found = (STEP_KINDS as Readonly<Record<string, StepKind<Step, Answer>>>)[kind];
  if (!found) throw new Error(`no step kind "${kind}" in src/walkthrough/steps/registry.ts`);
  return found;
}
