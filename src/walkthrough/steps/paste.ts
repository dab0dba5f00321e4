import { z } from 'zod';
import { firstBranch } from '../conditions.ts';
import { KeptChartSchema, keptChart } from './chart-schema.ts';
import { defineStepKind } from './step-kind.ts';
import { fromKey, skipTo, valueBranchEdges, wrongEvent } from './step-rules.ts';
import {
  BranchSchema,
  baseStep,
  FetchedFromSchema,
  FetchSchema,
  FindingSchema,
  fetchedLine,
  ParsedValuesSchema,
  stepId,
} from './step-schemas.ts';

/** Command output to paste, parsed by a parser from src/engine/parsers, branching on what it found. */
const PasteStepSchema = z.strictObject({
  ...baseStep,
  kind: z.literal('paste'),
  parser: z.string().min(1),
  branches: z.array(BranchSchema).default([]),
  otherwise: stepId,
  /** Where to go when the user cannot get this output; without it, skipping is not offered. */
  on_skip: stepId.optional(),
  /** Where a configured connector can fetch this output instead of a paste. */
  fetch: FetchSchema.optional(),
});

const PasteAnswerSchema = z.strictObject({
  kind: z.literal('paste'),
  /** Null when the user skipped the step. */
  format: z.string().nullable(),
  summary: z.string(),
  verdict: z.string().optional(),
  values: ParsedValuesSchema,
  facts: z.array(FindingSchema),
  /** The pasted lines, kept only when a later step takes its candidates from this step. */
  lines: z.array(z.string()).optional(),
  /** Set when a connector fetched the output instead of a person pasting it. */
  fetched: FetchedFromSchema.optional(),
  /** The figures the output's chart is drawn from, bounded; records written before it have none. */
  chart: KeptChartSchema.optional(),
});

/** Most lines kept for a later step: 64 halve to one in six rounds of a bisection. */
export const MAX_LINES = 64;

const EXPECTS = 'paste the command output';

function distinctLines(text: string): string[] {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return [...new Set(lines)].slice(0, MAX_LINES);
}

export const paste = defineStepKind({ schema: PasteStepSchema, answerSchema: PasteAnswerSchema })({
  expects: EXPECTS,
  input: 'output',
  // A branch tests the parsed values, which later steps see as `<step-id>.<key>`.
  edges: valueBranchEdges,
  lint: (step, at, procedure) =>
    procedure.parsers.has(step.parser)
      ? []
      : [
          {
            path: `${at}.parser`,
            message: `unknown parser "${step.parser}" (known: ${[...procedure.parsers].join(', ') || 'none'})`,
          },
        ],
  answer(step, event, ctx, parse) {
    if (event.type === 'skip')
      return {
        outcome: {
          answer: { kind: 'paste', format: null, summary: 'skipped', values: {}, facts: [] },
          next: skipTo(step, EXPECTS),
        },
      };
    if (event.type !== 'paste') throw wrongEvent(step, EXPECTS, event);
    const parsed = parse(step.parser, event.text);
    const branch = firstBranch(step.branches, parsed.values);
    const lines = ctx.linesWanted(step.id) ? distinctLines(event.text) : undefined;
    const chart = keptChart(parsed.chart);
    const answer = {
      kind: 'paste' as const,
      format: parsed.format,
      summary: parsed.summary,
      ...(parsed.verdict ? { verdict: parsed.verdict } : {}),
      values: parsed.values,
      facts: parsed.facts.map((f) =>
        f.values ? { kind: f.kind, values: { ...f.values } } : { kind: f.kind },
      ),
      ...(lines ? { lines } : {}),
      ...(event.from ? { fetched: event.from } : {}),
      ...(chart ? { chart } : {}),
    };
    return { outcome: { answer, next: branch?.next ?? step.otherwise, because: branch?.because } };
  },
  prefill(step, ctx) {
    // Only an input of a case answers a paste: its parsed values are those the paste would give.
    const kind = `parsed.${step.parser}`;
    const input = ctx.values[fromKey(kind)];
    const parsed = input ? ctx.facts.find((f) => f.kind === kind) : undefined;
    if (!parsed) return undefined;
    const values = { ...(parsed.values ?? {}) };
    const verdict = typeof values.verdict === 'string' ? values.verdict : undefined;
    const branch = firstBranch(step.branches, values);
    const answer = {
      kind: 'paste' as const,
      format: step.parser,
      summary: `read from ${input}${verdict ? `: ${verdict}` : ''}`,
      ...(verdict ? { verdict } : {}),
      values,
      facts: [],
    };
    const because = `known from ${input}, an input of this case`;
    return {
      answer,
      next: branch?.next ?? step.otherwise,
      because: branch?.because ? `${because}; ${branch.because}` : because,
    };
  },
  options: (step) =>
    step.on_skip ? [{ label: 'Skip: I cannot get this', event: { type: 'skip', step: step.id } }] : [],
  details(step, _ctx, parsers) {
    const parser = parsers[step.parser];
    return {
      parser: {
        id: step.parser,
        title: parser?.title ?? step.parser,
        howToGet: parser?.howToGet ?? 'the command named above',
      },
    };
  },
  answerText: (answer) => (answer.format === null ? 'skipped' : answer.summary),
  values: (answer) =>
    Object.fromEntries(Object.entries(answer.values).map(([key, value]) => [key, String(value)])),
  facts: (answer) => answer.facts,
  lines: (answer) => answer.lines,
  transcript: (answer) => [
    ...(answer.verdict ? [`Verdict: ${answer.verdict}`] : []),
    ...(answer.fetched ? [fetchedLine(answer.fetched)] : []),
  ],
  readText: (view, text) => ({ event: { type: 'paste', text, step: view.step } }),
  scripted: (_step, answer) => (typeof answer === 'string' ? { type: 'paste', text: answer } : undefined),
});
