/**
 * The tools' output schemas (MCP `outputSchema`): the shapes `diagnose --json`, `parse --json`,
 * `calc --json` and `check --json` print, so an agent gets the same JSON a script gets. Nested
 * objects name the fields every answer has and stay open to more (a playbook's facts, a parser's figures):
 * clients validate structured output against these, so an open object is `additionalProperties: {}`.
 */
import { z } from 'zod';

const Evidence = z.object({ line: z.number(), text: z.string() });

const Diagnosis = z.object({
  playbook: z.string().describe('the playbook id, e.g. spark-executor-overhead-killed'),
  title: z.string(),
  confidence: z.number().describe('0 to 1'),
  cause: z.string().nullable(),
  evidence: z.array(Evidence).describe('the lines of the input the diagnosis rests on, by line number'),
  facts: z.record(z.string(), z.unknown()),
  actions: z.array(z.string()),
});

const Suggestion = z.object({
  playbook: z.string(),
  confidence: z.number(),
  rationale: z.string(),
  evidence: z.array(Evidence),
});

const Stats = z.looseObject({ bytes: z.number(), lines: z.number() });

const CaseGroup = z.looseObject({
  inputs: z.array(z.string()),
  joinedBy: z.array(z.string()),
  processes: z.array(z.string()),
  diagnoses: z.array(
    z.looseObject({
      playbook: z.string(),
      title: z.string(),
      confidence: z.number(),
      evidence: z.array(z.looseObject({ input: z.string(), line: z.number(), text: z.string() })),
      actions: z.array(z.string()),
    }),
  ),
});

/** One input's report: `memdoctor diagnose --json`, byte for byte. */
export const ReportShape = {
  source: z.string(),
  input: Stats,
  diagnoses: z.array(Diagnosis).describe('ranked, most likely first; empty when nothing was recognised'),
};

/**
 * `diagnose`: one input gives `diagnose --json` (source, input, diagnoses, and a model's suggestion
 * when one is configured); several paths give `diagnose --together --json` (inputs, leftOut, groups,
 * notes). One object schema for both, as MCP wants an object: each field says which it belongs to.
 */
export const DiagnoseOutput = z.object({
  source: ReportShape.source.optional().describe('one input: its name'),
  input: Stats.optional().describe('one input: bytes and lines read'),
  diagnoses: ReportShape.diagnoses.optional().describe('one input: ranked diagnoses, most likely first'),
  suggestion: Suggestion.optional().describe("one input: a model's suggestion (only when configured)"),
  inputs: z
    .array(z.object({ source: z.string(), input: Stats }))
    .optional()
    .describe('a case: each input read'),
  leftOut: z.array(z.object({ source: z.string(), reason: z.string() })).optional(),
  groups: z.array(CaseGroup).optional().describe('a case: one answer per group of joined inputs'),
  notes: z.array(z.string()).optional(),
});

/** `parse --json`: a dump's figures. */
export const ParseOutput = z.object({
  format: z.string().describe('the parser id'),
  facts: z.array(z.looseObject({ kind: z.string() })),
  values: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])),
  summary: z.string(),
  verdict: z.string().optional(),
});

/** `calc <system> --json`: each calculator's own fields, under its system name. */
export const CalcOutput = z.looseObject({ system: z.string() });

/** `check --json`: the report in diagnose's shape, and what was fetched from where. */
export const CheckOutput = z.object({
  ...ReportShape,
  fetched: z.array(
    z.looseObject({
      connector: z.string(),
      path: z.string(),
      fetchedAt: z.string(),
      parser: z.string().optional(),
      citations: z.array(z.string()),
    }),
  ),
});

/** A step as listed: enough to follow it; the procedure's JSON has every field. */
const ListedStepSchema = z.looseObject({
  id: z.string(),
  kind: z.string(),
  title: z.string(),
  text: z.string(),
});

export const PlaybookJson = z.object({
  id: z.string(),
  title: z.string(),
  engine: z.string(),
  summary: z.string(),
  explanation: z.string(),
  actions: z
    .array(z.string())
    .describe('as written in the playbook: {{placeholders}} are filled from a diagnosis'),
  verify: z.array(z.string()),
  sources: z.array(z.string()),
  procedure: z
    .looseObject({ start: z.string(), steps: z.array(ListedStepSchema) })
    .optional()
    .describe('the walkthrough (walkthrough_start), when the playbook has one'),
});

export type PlaybookJsonValue = z.infer<typeof PlaybookJson>;

export type ListedStep = z.infer<typeof ListedStepSchema>;
