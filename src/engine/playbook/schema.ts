import { z } from 'zod';

const FACT_KIND = /^[a-z][a-z0-9-]*(?:\.[a-z0-9-]+)*(?:\.\*)?$|^exit\.-?\d+$/;

const factKind = z
  .string()
  .regex(FACT_KIND, 'a fact kind is dotted lower-case words, e.g. "oom.java-heap" or "engine.*"');

const where = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));

/** A fact kind, or a kind with conditions on its values. */
const PlainRefSchema = z.union([factKind, z.strictObject({ fact: factKind, where: where.optional() })]);

/**
 * What a fact counts on beside itself: `with`, facts that must all be in the input too (a bare
 * TimeoutException says slots only while tasks wait in SCHEDULED); `unless`, facts none of which may
 * be (a Flink cluster is not Flink's own when it is embedded in a Beam job server).
 */
const context = {
  with: z.array(PlainRefSchema).min(1, '`with` names at least one fact').optional(),
  unless: z.array(PlainRefSchema).min(1, '`unless` names at least one fact').optional(),
};

/** A fact the playbook looks for, optionally with conditions on its values and on other facts. */
export const FactRefSchema = z.union([
  factKind,
  z.strictObject({ fact: factKind, where: where.optional(), ...context }),
]);

/** A fact that adds (or, when negative, removes) confidence. */
export const SignalSchema = z.strictObject({
  fact: factKind,
  where: where.optional(),
  ...context,
  weight: z
    .number()
    .min(-1)
    .max(1)
    .refine((w) => w !== 0, 'a weight of 0 does nothing; remove the signal'),
  why: z.string().min(1).optional(),
});

export const MatchSchema = z.strictObject({
  /** Every group must be met by at least one of its facts. */
  requires: z.array(z.strictObject({ any: z.array(FactRefSchema).min(1), label: z.string().min(1) })).min(1),
  /** Facts that rule this playbook out entirely. */
  excludes: z.array(FactRefSchema).default([]),
  signals: z.array(SignalSchema).min(1),
  /** Below this confidence the playbook is not reported. */
  min_confidence: z.number().min(0).max(1).default(0.3),
});

/** An action: a sentence with {{placeholders}} filled from facts and derived values. */
export const ActionSchema = z.strictObject({
  text: z.string().min(1),
  /** Used when a placeholder of `text` has no value in this input; without it the action is left out. */
  otherwise: z.string().min(1).optional(),
  /** Only shown when one of these facts is present. */
  when: z.array(FactRefSchema).optional(),
  /**
   * Left out when one of these facts is present: advice that would mislead there (overhead advice
   * for a container YARN killed for virtual memory, whose fix is a NodeManager setting).
   */
  unless: z.array(FactRefSchema).optional(),
});

export const CauseSchema = z.strictObject({
  id: z.string().regex(/^[a-z][a-z0-9-]*$/, 'a cause id is lower-case words joined by "-"'),
  title: z.string().min(1),
  when: z.array(FactRefSchema).min(1),
  explanation: z.string().min(1),
  actions: z.array(ActionSchema).default([]),
});

/**
 * A title the diagnosis takes instead of the playbook's when its facts are present: what was found,
 * where the playbook's title would say more (a live dump's leak under "A JVM ran out of memory").
 */
export const TitleSchema = z.strictObject({
  title: z.string().min(1).max(120),
  when: z.array(FactRefSchema).min(1),
});

export const PlaybookSchema = z.strictObject({
  id: z.string().regex(/^[a-z][a-z0-9-]*$/, 'a playbook id is lower-case words joined by "-"'),
  title: z.string().min(1).max(120),
  /** Titles for what the playbook also covers, the first whose `when` holds (any of its facts) taken. */
  titles: z.array(TitleSchema).default([]),
  engine: z.enum(['glue', 'spark', 'flink', 'beam', 'jvm']),
  summary: z.string().min(1),
  explanation: z.string().min(1),
  match: MatchSchema,
  causes: z.array(CauseSchema).default([]),
  actions: z.array(ActionSchema).min(1),
  /** Named calculations (src/engine/derive) whose values the actions may use. */
  derive: z.array(z.string()).default([]),
  verify: z.array(z.string().min(1)).default([]),
  sources: z.array(z.string().min(1)).default([]),
});

export type FactRef = z.infer<typeof FactRefSchema>;
export type Signal = z.infer<typeof SignalSchema>;
export type Action = z.infer<typeof ActionSchema>;
export type Cause = z.infer<typeof CauseSchema>;
export type PlaybookSpec = z.infer<typeof PlaybookSchema>;

/** A loaded playbook: the validated spec plus where it came from and a hash of its files. */
export interface Playbook extends PlaybookSpec {
  /** sha256 of the playbook's files, so a walkthrough can stay on the version it started with. */
  version: string;
  dir: string;
  /** The step-by-step procedure (validated by the walkthrough module), when the playbook has one. */
  procedure?: unknown;
}
