import { z } from 'zod';

const Kind = z
  .string()
  .regex(/^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/, 'a fact kind is dotted lower-case words, e.g. "flink.no-slots"');
const Literal = z
  .string()
  .min(3, 'a trigger of fewer than 3 characters would open the extractor on most lines')
  .regex(/^[^A-Z]+$/, 'triggers are lower-case: the engine lower-cases each line before it looks for them');
const ValueName = z.string().regex(/^[a-z][A-Za-z0-9]*$/, 'a value name is camelCase, e.g. "timeoutMs"');

/**
 * One line pattern a family adds to its extractor: the regex, the literals one of which is in every
 * line it matches (the engine opens the extractor only on such lines), and the values its finding
 * carries: fixed ones, plus every named group (`(?<timeoutMs>\d+)`), as a number when `numbers` says so.
 */
export const DataRuleSchema = z.strictObject({
  pattern: z.string().min(1),
  flags: z
    .string()
    .regex(/^i?$/, 'only "i" is allowed: the engine tests one line at a time, never globally')
    .default(''),
  triggers: z.array(Literal).min(1, 'name the literals one of which is in every line the pattern matches'),
  values: z.record(ValueName, z.union([z.string(), z.number(), z.boolean()])).default({}),
  numbers: z.array(ValueName).default([]),
});

/** A message family as data: where its wording comes from, lines from that source, its patterns. */
export const DataFamilySchema = z.strictObject({
  name: z.string().min(3),
  kind: Kind,
  source: z.string().min(10, 'name the repository and file, or the doc page, the wording comes from'),
  versions: z.string().min(2, 'say which versions print this wording'),
  examples: z.array(z.string().min(1)).min(1, 'give at least one line as the source prints it'),
  patterns: z.array(DataRuleSchema).default([]),
});

/** One families file: the extractor its families belong to, and the families. */
export const FamiliesFileSchema = z.strictObject({
  extractor: z.string().regex(/^[a-z0-9-]+$/),
  families: z.array(DataFamilySchema).min(1),
});

export type DataRule = z.infer<typeof DataRuleSchema>;
export type DataFamily = z.infer<typeof DataFamilySchema>;
export type FamiliesFile = z.infer<typeof FamiliesFileSchema>;

/** What the build writes: every file's families, by extractor id, in file order. */
export const CompiledFamiliesSchema = z.record(z.string(), z.array(DataFamilySchema));
export type CompiledFamilies = z.infer<typeof CompiledFamiliesSchema>;
