import { z } from 'zod';
import type { LeftOut, StoredInput } from '../engine/case/index.ts';
import { ENGINE_HINTS, type EngineHint } from '../engine/index.ts';

/**
 * Where a case lives: a Slack thread (team, channel, thread ts) or a console session (`local`,
 * `console`, the session's id). The parts are safe inside a Redis hash tag.
 */
export interface CaseWhere {
  workspace: string;
  conversation: string;
  thread: string;
}

const part = z.string().regex(/^[A-Za-z0-9_.:-]{1,80}$/, 'letters, digits, "_", ".", ":" and "-" only');
export const CaseWhereSchema = z.strictObject({ workspace: part, conversation: part, thread: part });

const FactValue = z.union([z.string(), z.number(), z.boolean()]);
const FactSchema = z.strictObject({
  kind: z.string().min(1).max(200),
  values: z.record(z.string(), FactValue).optional(),
  line: z.number().int().min(0),
  text: z.string().max(2000),
});
const JoinKeySchema = z.strictObject({
  family: z.enum([
    'yarn-container',
    'yarn-application',
    'spark-executor',
    'flink-taskmanager',
    'k8s-pod',
    'pid',
  ]),
  value: z.string().min(1).max(300),
});

/** One input as a case keeps it: never its text, only its size, keys and facts (zod: a boundary). */
export const StoredInputSchema = z.strictObject({
  name: z.string().min(1).max(300),
  bytes: z.number().int().min(0),
  lines: z.number().int().min(0),
  keys: z.strictObject({
    first: z.array(z.strictObject({ id: z.string(), key: JoinKeySchema, line: z.number().int().min(0) })),
    links: z.array(z.tuple([z.string(), z.string()])),
  }),
  book: z.strictObject({
    groups: z.array(
      z.strictObject({ kind: z.string().min(1), count: z.number().int().min(1), first: z.array(FactSchema) }),
    ),
    configs: z.array(z.tuple([z.string(), FactSchema])),
    configsCapped: z.boolean(),
  }),
  time: z.strictObject({ first: z.iso.datetime(), last: z.iso.datetime(), zoned: z.boolean() }).optional(),
}) satisfies z.ZodType<StoredInput>;

export const LeftOutSchema = z.strictObject({
  source: z.string().min(1),
  reason: z.string().min(1),
}) satisfies z.ZodType<LeftOut>;

/** A case: what its inputs showed, what was left out, and the one answer message that shows it. */
export interface CaseRecord {
  version: number;
  createdAt: string;
  updatedAt: string;
  /** The ts of the Slack message holding the case's answer (edited as inputs arrive). */
  answerTs?: string;
  /** The engine hint given with the first input (`/memdoctor glue ...`), applied to the whole case. */
  engine?: EngineHint;
  inputs: StoredInput[];
  /** Inputs not added (over the limits), each with why; at most MAX_LEFT_OUT kept, `leftOutCount` counts all. */
  leftOut: LeftOut[];
  leftOutCount: number;
  /** Bytes of text of the inputs held. */
  bytes: number;
}

export const EngineHintSchema = z.enum(ENGINE_HINTS);

/** Left-out entries a case keeps (more are counted, not kept): the answer names the first few. */
export const MAX_LEFT_OUT = 20;

/** Largest stored input (its facts as JSON): a book is bounded, so only a malformed one gets near it. */
export const MAX_STORED_INPUT_CHARS = 1024 * 1024;
