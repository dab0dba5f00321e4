import { z } from 'zod';
import { requestText } from '../../connectors/types.ts';

// The schemas every step kind builds on: the fields all steps share, the facts and values a
// walkthrough keeps, the rounds of a bisection, and the conditions and branches that pick the next step.

export const stepId = z.string().regex(/^[a-z][a-z0-9-]*$/, 'a step id is lower-case words joined by "-"');

/** The fields every step has; a kind's schema spreads them and adds `kind: z.literal(...)`. */
export const baseStep = {
  id: stepId,
  title: z.string().min(1).max(150),
  text: z.string().min(1),
};

const FactValueSchema = z.union([z.string(), z.number(), z.boolean()]);

/** A fact without its source line: what a walkthrough keeps from the diagnosis and from pastes. */
export const FindingSchema = z.strictObject({
  kind: z.string().min(1),
  values: z.record(z.string(), FactValueSchema).optional(),
});
export type Finding = z.infer<typeof FindingSchema>;

/** Values a parsed paste reports, by key. */
export const ParsedValuesSchema = z.record(z.string(), FactValueSchema);

/** One round of a step that takes several answers (a bisection): what was tried, and what showed. */
export const RoundSchema = z.strictObject({ tested: z.array(z.string()).min(1), leak: z.boolean() });
export type Round = z.infer<typeof RoundSchema>;

/** A comparison on a number or value: the answer of a measurement, or a value a parser found. */
export const ConditionSchema = z.strictObject({
  /** Which value: `value` (the measurement itself) or a key of the parsed output's values. */
  value: z.string().min(1).default('value'),
  op: z.enum(['lt', 'lte', 'gt', 'gte', 'eq', 'neq']),
  to: z.union([z.number(), z.string(), z.boolean()]),
});
export type Condition = z.infer<typeof ConditionSchema>;

/** Go to `next` when every condition holds. Branches are tried in order. */
export const BranchSchema = z.strictObject({
  when: z.array(ConditionSchema).min(1),
  next: stepId,
  /** Shown to the user with the branch taken, e.g. "Heap stays above 80%: the heap is too small." */
  because: z.string().min(1).optional(),
});
export type Branch = z.infer<typeof BranchSchema>;

/** The systems a step can fetch from: the keys of connectors.yaml that have a connector today. */
export const FETCH_CONNECTORS = ['flink', 'spark', 'yarn', 'kubernetes', 'glue', 'dataflow'] as const;

const fetchSource = {
  connector: z.enum(FETCH_CONNECTORS),
  resources: z.array(z.string().min(1)).min(1),
  ids: z.record(z.string().min(1), z.string().min(1)).default({}),
  /**
   * On a measurement step: the value of the fetched answer's parsed output that is the number asked
   * for (`heapUsagePeak`), read by the parser of the last resource, as a paste of it would be.
   */
  value: z.string().min(1).optional(),
};

/** One system's answer to a step: its connector, the resources, and the ids they take. */
export const FetchSourceSchema = z.strictObject(fetchSource);
export type FetchSource = z.infer<typeof FetchSourceSchema>;

/**
 * Where a connector can fetch the output a paste step asks for. The resources are fetched in order
 * and joined as one paste, as `curl a; echo; curl b` prints them; each id the connector needs comes
 * from the walkthrough's known values (`ids: { jobId: flink.job-id }`) or is typed with the request.
 */
export const FetchSchema = z.strictObject({
  ...fetchSource,
  /**
   * A second system holding the same evidence, read by the same parser: fetched when the first is not
   * configured, or when the first's answer does not hold what the step reads (YARN's application
   * diagnostics name an executor's kill only when the application died of it; Spark keeps each
   * executor's removal reason).
   */
  or: FetchSourceSchema.optional(),
});
export type FetchSpec = z.infer<typeof FetchSchema>;

/** A fetched answer's origin, kept in the record: the connector, what was asked for, and when. */
export const FetchedFromSchema = z.strictObject({
  connector: z.string().min(1),
  paths: z.array(z.string().min(1)).min(1),
  fetchedAt: z.string().min(1),
  /** The ids the fetch used (`appId`), so a later step's fetch needs none typed again. */
  ids: z.record(z.string().min(1), z.string().min(1)).optional(),
});
export type FetchedFromRecord = z.infer<typeof FetchedFromSchema>;

/** How the transcript says an answer was fetched, not typed or pasted: the source and the time. */
export function fetchedLine(from: FetchedFromRecord): string {
  return `Fetched from ${from.connector}: ${from.paths.map(requestText).join(', ')} at ${from.fetchedAt}`;
}
