import { z } from 'zod';
import { firstBranch } from '../conditions.ts';
import { defineStepKind } from './step-kind.ts';
import { skipTo, valueBranchEdges, wrongEvent } from './step-rules.ts';
import {
  BranchSchema,
  baseStep,
  type Finding,
  FindingSchema,
  ParsedValuesSchema,
  stepId,
} from './step-schemas.ts';

/**
 * A Java heap dump to hand over (a path at the terminal, a file in a Slack thread), branching on its
 * leak suspects. A dump is binary and may be gigabytes, so the machine never reads one: the surface
 * has it analysed (src/usecases/heap-dump-step.ts) and answers with the analysis' facts, the
 * `heap-dump.*` facts a diagnosis of the dump gives. When the diagnosis itself came from a dump, the
 * step is answered from those facts without asking again.
 */
const HeapDumpStepSchema = z.strictObject({
  ...baseStep,
  kind: z.literal('heap-dump'),
  branches: z.array(BranchSchema).default([]),
  otherwise: stepId,
  /** Where to go when the user cannot get a dump; without it, skipping is not offered. */
  on_skip: stepId.optional(),
});

const HeapDumpAnswerSchema = z.strictObject({
  kind: z.literal('heap-dump'),
  /** The dump's name as given; null when the user skipped the step. */
  source: z.string().nullable(),
  summary: z.string(),
  values: ParsedValuesSchema,
  facts: z.array(FindingSchema),
});

const EXPECTS = 'give the heap dump (a path to the .hprof or .hprof.gz file)';

/** The facts a dump's analysis gives (src/engine/heap/evidence.ts); the others are not a dump's. */
const DUMP_FACTS = /^heap-dump\./;

function has(facts: readonly Finding[], kind: string): boolean {
  return facts.some((f) => f.kind === kind);
}

/**
 * What branches read of a dump: `leak` (one object over a tenth of the heap, MAT's suspect),
 * `peak` (no such object), `holder` (a known holder's id, or ''), `classLoaderLeak`, `suspect`
 * (the leak's class, or ''), `topShare` (the biggest suspect's share of the heap, 0-1), `oom`
 * (written on an OutOfMemoryError), `cutShort`.
 */
export function heapDumpValues(facts: readonly Finding[]): Record<string, string | number | boolean> {
  const leak = facts.find((f) => f.kind === 'heap-dump.leak');
  const holder = facts.find((f) => f.kind === 'heap-dump.holder')?.values?.holder;
  const shares = facts
    .filter((f) => f.kind === 'heap-dump.suspect')
    .map((f) => Number(f.values?.percent ?? 0) / 100);
  return {
    leak: leak !== undefined,
    peak: has(facts, 'heap-dump.peak'),
    holder: typeof holder === 'string' ? holder : '',
    classLoaderLeak: has(facts, 'heap-dump.classloader-leak'),
    suspect: typeof leak?.values?.class === 'string' ? leak.values.class : '',
    topShare: Math.round(Math.max(0, ...shares) * 1000) / 1000,
    oom: has(facts, 'heap-dump.oom-thread'),
    cutShort: has(facts, 'heap-dump.cut-short'),
  };
}

/** The answer a dump's facts give, and where its branches lead. */
function outcomeOf(
  step: z.infer<typeof HeapDumpStepSchema>,
  source: string,
  summary: string,
  facts: readonly Finding[],
) {
  const kept = facts.filter((f) => DUMP_FACTS.test(f.kind));
  const values = heapDumpValues(kept);
  const branch = firstBranch(step.branches, values);
  const answer = { kind: 'heap-dump' as const, source, summary, values, facts: kept };
  return { answer, next: branch?.next ?? step.otherwise, because: branch?.because };
}

/** The keys a branch may read: those heapDumpValues reports for any dump. */
const VALUE_KEYS = Object.keys(heapDumpValues([]));

export const heapDump = defineStepKind({ schema: HeapDumpStepSchema, answerSchema: HeapDumpAnswerSchema })({
  expects: EXPECTS,
  input: 'dump',
  edges: valueBranchEdges,
  lint: (step, at) =>
    step.branches.flatMap((b, i) =>
      b.when.flatMap((c, j) =>
        VALUE_KEYS.includes(c.value)
          ? []
          : [
              {
                path: `${at}.branches[${i}].when[${j}].value`,
                message: `a heap dump gives no "${c.value}" (it gives: ${VALUE_KEYS.join(', ')})`,
              },
            ],
      ),
    ),
  answer(step, event) {
    if (event.type === 'skip')
      return {
        outcome: {
          answer: { kind: 'heap-dump', source: null, summary: 'skipped', values: {}, facts: [] },
          next: skipTo(step, EXPECTS),
        },
      };
    if (event.type !== 'heap-dump') throw wrongEvent(step, EXPECTS, event);
    return { outcome: outcomeOf(step, event.source, event.summary, event.facts) };
  },
  prefill(step, ctx) {
    // A diagnosis of a dump says leak or peak; then that dump answers the step.
    if (!ctx.facts.some((f) => f.kind === 'heap-dump.leak' || f.kind === 'heap-dump.peak')) return undefined;
    return outcomeOf(step, 'the diagnosed heap dump', 'read from the heap dump diagnosed', ctx.facts);
  },
  options: (step) =>
    step.on_skip ? [{ label: 'Skip: I cannot get a dump', event: { type: 'skip', step: step.id } }] : [],
  answerText: (answer) => (answer.source === null ? 'skipped' : `${answer.source}: ${answer.summary}`),
  values: (answer) =>
    Object.fromEntries(Object.entries(answer.values).map(([key, value]) => [key, String(value)])),
  facts: (answer) => answer.facts,
  scripted: () => undefined,
});
